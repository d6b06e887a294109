// Inject, the child-process environment, the vault.secrets service and redaction.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import { singleInstanceTest } from "../../helpers/team-host.ts";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { redactValues } from "../../../plugins/vault/services/redact.ts";
import { createProbe, post, rawRows, startVaultHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost; probe: ReturnType<typeof createProbe> }>("vault inject and services");
// The probe holds one process's vault service: in a team the other instance's save reaches
// that view on its reload (at once on NOTIFY, docs/team.md), not within the test's next line.
const oneView = singleInstanceTest(t, "reads one process's view of the secrets or its child environment (the probe) right after a save or an injection the round-robin sent to either instance");

const OPENAI = "sk-openai-inject-test-0123456789";

t.before(async (ctx) => {
  ctx.probe = createProbe();
  ctx.h = await startVaultHost({ extraPlugins: [ctx.probe.plugin] });
  await post(ctx.h, "/api/vault", { name: "OPENAI_API_KEY", value: OPENAI });
  await post(ctx.h, "/api/vault", { name: "SMTP_CONNECTION", value: '{"host":"smtp.example","pass":"p@ss\\"word"}' });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const env = (probe: ReturnType<typeof createProbe>) => probe.environment!;
/** A secret's lastAccessedAt as the API lists it. */
const lastAccessedAt = async (h: TestHost, name: string) => (await h.json<ApiBody<"getVault">>("/api/vault")).body.secrets.find((s) => s.name === name)!.lastAccessedAt;
const inject = (h: TestHost, body: unknown, init: { session?: boolean; headers?: Record<string, string> } = { session: true }) =>
  post(h, "/api/vault/inject", body, init);

t("inject needs the session token; unknown secrets are 404; nothing injected on refusal", async ({ h, probe }) => {
  const noToken = await inject(h, { name: "OPENAI_API_KEY", envVar: "OPENAI_API_KEY" }, {});
  assert.is(noToken.status, 401);
  const unknown = await inject(h, { name: "NOT_STORED", envVar: "NOT_STORED" });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error?.code, "VAULT_SECRET_NOT_FOUND");
  assert.equal(env(probe).variables(), []);
});

sqliteFileTest(t, "compares the rows of muster.db at rest")("protected variables are refused with 403 and leave secret and environment unchanged", async ({ h, probe }) => {
  const before = rawRows(h.home);
  for (const envVar of [
    "PATH", "NODE_OPTIONS", "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "VAULT_KEY", "NEW_VAULT_KEY",
    "GATEWAY_TOKEN", "MUSTER_API_TOKEN", "MUSTER_HOME", "HOME", "SHELL", "NODE_PATH", "BASH_ENV", "IFS", "PYTHONPATH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND", "GIT_TEMPLATE_DIR", "XDG_CONFIG_HOME", "LESSOPEN", "HTTPS_PROXY",
  ]) {
    const res = await inject(h, { name: "OPENAI_API_KEY", envVar });
    assert.is(res.status, 403, envVar);
    assert.is(res.body.error?.code, "VAULT_ENV_VAR_PROTECTED", envVar);
    assert.ok(res.body.error?.message.includes(envVar));
    assert.not.ok(JSON.stringify(res.body).includes(OPENAI));
  }
  assert.equal(env(probe).variables(), []);
  assert.equal(rawRows(h.home), before, "lastAccessedAt untouched");
});

oneView("inject puts the value into childEnv only: not process.env, not the response, not the event", async ({ h, probe }) => {
  const res = await inject(h, { name: "OPENAI_API_KEY", envVar: "OPENAI_API_KEY" }, { session: true, headers: { "x-agent-id": "thor" } });
  assert.is(res.status, 200);
  assert.equal(res.body, { ok: true, name: "OPENAI_API_KEY", envVar: "OPENAI_API_KEY" });
  assert.is(process.env.OPENAI_API_KEY, undefined);
  assert.not.ok(Object.values(process.env).includes(OPENAI));
  assert.equal(env(probe).variables(), [{ envVar: "OPENAI_API_KEY", secret: "OPENAI_API_KEY" }]);
  const event = probe.events.find((e) => e.name === "vault.secret.injected")!;
  assert.equal(event.payload, { name: "OPENAI_API_KEY", envVar: "OPENAI_API_KEY" });
  const activity = (await h.json<ApiBody<"getActivities">>("/api/activities?action=vault_secret_injected")).body[0];
  assert.ok(activity);
  assert.equal([activity.agentId, activity.target, activity.details], ["thor", "OPENAI_API_KEY", "envVar=OPENAI_API_KEY"]);
  assert.ok(await lastAccessedAt(h, "OPENAI_API_KEY"));
});

oneView("childEnv drops Muster's credentials, keeps the rest, adds injected secrets; a child process sees them", ({ probe }) => {
  const base = { PATH: process.env.PATH ?? "", FOO: "bar", VAULT_KEY: "k", GATEWAY_TOKEN: "g", MUSTER_API_TOKEN: "m", NEW_VAULT_KEY: "n" };
  const child = env(probe).childEnv(base);
  assert.equal(child, { PATH: base.PATH, FOO: "bar", OPENAI_API_KEY: OPENAI });
  assert.equal(env(probe).childEnv(base, { injected: false }), { PATH: base.PATH, FOO: "bar" });
  assert.is.not(env(probe).childEnv(base), env(probe).childEnv(base), "a fresh copy each call");
  const run = spawnSync(process.execPath, ["-e", "process.stdout.write(JSON.stringify([process.env.OPENAI_API_KEY, process.env.VAULT_KEY ?? null]))"], {
    env: env(probe).childEnv({ ...process.env, VAULT_KEY: "server passphrase" }),
    encoding: "utf8",
    timeout: 20_000,
  });
  assert.equal(JSON.parse(run.stdout), [OPENAI, null]);
  const secrets = probe.secrets!;
  assert.is(secrets.redact(`child said: ${run.stdout}`), 'child said: ["[redacted:OPENAI_API_KEY]",null]');
});

oneView("updating a secret updates its injection; deleting it removes the injection", async ({ h, probe }) => {
  await inject(h, { name: "OPENAI_API_KEY", envVar: "SECOND_NAME" });
  await post(h, "/api/vault", { name: "OPENAI_API_KEY", value: "sk-openai-rotated-value-42" });
  const child = env(probe).childEnv({});
  assert.equal(child, { OPENAI_API_KEY: "sk-openai-rotated-value-42", SECOND_NAME: "sk-openai-rotated-value-42" });
  await h.json<ApiBody<"deleteVault">>("/api/vault?name=OPENAI_API_KEY", { method: "DELETE", session: true });
  assert.equal(env(probe).childEnv({}), {});
  assert.equal(env(probe).variables(), []);
});

oneView("vault.secrets: get() by name sets lastAccessedAt; null for unknown names", async ({ h, probe }) => {
  const secrets = probe.secrets!;
  assert.is(await lastAccessedAt(h, "SMTP_CONNECTION"), null);
  assert.is(secrets.get("SMTP_CONNECTION"), '{"host":"smtp.example","pass":"p@ss\\"word"}');
  assert.ok(await lastAccessedAt(h, "SMTP_CONNECTION"));
  assert.is(secrets.get("OPENAI_API_KEY"), null);
  assert.equal(secrets.status(), { state: "unlocked", source: "VAULT_KEY", keyDerivations: 1 });
});

oneView("redact replaces stored values, also JSON-escaped, and follows writes", async ({ h, probe }) => {
  const secrets = probe.secrets!;
  const smtp = '{"host":"smtp.example","pass":"p@ss\\"word"}';
  assert.is(secrets.redact(`raw ${smtp} end`), "raw [redacted:SMTP_CONNECTION] end");
  assert.is(secrets.redact(JSON.stringify({ body: smtp })), '{"body":"[redacted:SMTP_CONNECTION]"}');
  assert.is(secrets.redact("nothing secret here"), "nothing secret here");
  await post(h, "/api/vault", { name: "NEW_ONE", value: "fresh-secret-after-cache" });
  assert.is(secrets.redact("x fresh-secret-after-cache y"), "x [redacted:NEW_ONE] y");
  await h.json<ApiBody<"deleteVault">>("/api/vault?name=NEW_ONE", { method: "DELETE", session: true });
  assert.is(secrets.redact("x fresh-secret-after-cache y"), "x fresh-secret-after-cache y");
});

t("redactValues: longest value first, short values left alone, special characters literal", () => {
  const list = [
    { name: "SHORT", value: "abc" },
    { name: "INNER", value: "token-1234" },
    { name: "OUTER", value: "prefix-token-1234-suffix" },
    { name: "REGEX", value: "a.*b(c)?$" },
  ];
  assert.is(redactValues("prefix-token-1234-suffix and token-1234 and abc", list), "[redacted:OUTER] and [redacted:INNER] and abc");
  assert.is(redactValues("x a.*b(c)?$ y aXXb", list), "x [redacted:REGEX] y aXXb");
  assert.is(redactValues("", list), "");
});

t("redactValues: a self-overlapping secret is found at every overlapping position, in time linear in the text", () => {
  // "aabaa" occurs at 0 and 4 of "aabaaabaa": a shift that is not a multiple of its period.
  assert.is(redactValues("<aabaaabaa>", [{ name: "P", value: "aabaa" }]), "<[redacted:P]>");
  assert.is(redactValues("x ababab y abab", [{ name: "AB", value: "abab" }]), "x [redacted:AB] y [redacted:AB]");
  assert.is(redactValues("aaab aaaa", [{ name: "A", value: "aaaa" }]), "aaab [redacted:A]");
  // A 64 KiB run of one letter (the largest value the vault accepts) over 1 MiB of the same
  // letter: searching again one character after each occurrence took minutes of event loop.
  const secret = "a".repeat(64 * 1024);
  const started = performance.now();
  const out = redactValues(`${"a".repeat(1024 * 1024)}b${secret.slice(1)}`, [{ name: "RUN", value: secret }]);
  assert.ok(performance.now() - started < 2_000, `took ${Math.round(performance.now() - started)} ms`);
  assert.is(out, `[redacted:RUN]b${secret.slice(1)}`);
});

t.run();
