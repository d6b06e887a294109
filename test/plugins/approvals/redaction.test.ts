// Gated actions whose error quotes stored secrets (an HTTP client echoing a token): the values
// never reach the approval record, activities, notifications or the log, whatever the secrets
// look like (the largest the vault accepts, hundreds of them, regex metacharacters, one inside
// another), and the executor's outcome is always recorded, even when redaction or storing the
// result fails.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import pino from "pino";
import { defineGatedAction, definePlugin, defineService, z, type PluginDefinition } from "@muster/plugin";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { notificationsPlugin } from "../../../plugins/notifications/index.ts";
import { approvalsPlugin } from "../../../plugins/approvals/index.ts";
import { VAULT_SECRETS } from "../../../plugins/vault/tokens.ts";
import type { VaultSecrets } from "../../../plugins/vault/services/vault-secrets.ts";
import { startTestHost, removeHome, withTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { decideApproval } from "@muster/plugin/testing";
import type { ApiBody } from "@muster/plugin/testing";

const KIND = "leaky.send";
const WEIRD_KIND = "leaky.weird";
const ECHO_KIND = "leaky.echo";
type LeakyPayload = { names: string[]; extra?: string };
type EchoPayload = { name: string; pad: number; tail: number };

/**
 * `leaky.send` reads the named secrets from the vault and throws an error quoting them
 * (plus `extra` text), as an HTTP client echoing its credentials would. `leaky.weird`
 * returns a result that cannot be serialised (or even turned into a string).
 */
const leakyPlugin = definePlugin({
  id: "leaky",
  version: "1.0.0",
  host: "^1.0.0",
  dependsOn: ["approvals"],
  optionalDependsOn: ["vault"],
  paths: ["/api/leaky"],
  gatedActions: [
    defineGatedAction({
      kind: KIND,
      deps: { secrets: VAULT_SECRETS },
      create: ({ secrets }) => ({
        describe: (p: LeakyPayload) => `Call upstream with ${p.names.length} credentials`,
        async execute(p: LeakyPayload) {
          const values = p.names.map((name) => secrets.get(name) ?? `<no ${name}>`);
          throw new Error(`401 Unauthorized; sent ${values.join(" | ")}; ${p.extra ?? ""}`);
        },
      }),
    }),
    // Succeeds with a result quoting the secret, as an upstream echoing the request's headers would: `pad` characters before it, `tail` after.
    defineGatedAction({
      kind: ECHO_KIND,
      deps: { secrets: VAULT_SECRETS },
      create: ({ secrets }) => ({
        describe: (p: EchoPayload) => `Echo ${p.name}`,
        async execute(p: EchoPayload) {
          return { echoed: `${"x".repeat(p.pad)}Authorization: Bearer ${secrets.get(p.name)}`, tail: "y".repeat(p.tail) };
        },
      }),
    }),
    defineGatedAction({
      kind: WEIRD_KIND,
      deps: {},
      create: () => ({
        describe: () => "Return an unserialisable result",
        async execute() {
          const result = Object.create(null);
          result.toJSON = () => {
            throw new Error("cannot serialise");
          };
          return result;
        },
      }),
    }),
  ],
  routes(router, ctx) {
    router.post(
      "/api/leaky",
      { summary: "Request a leaky action", status: 201, body: z.strictObject({ kind: z.string(), payload: z.json() }) },
      async ({ body }) => ({ ok: true, ...(await ctx.gate.request(body.kind, body.payload, { requestedBy: "scribe", title: "Call upstream" })) }),
    );
  },
});

/** Stands in for the vault with a redaction that throws, quoting a value as V8's regex error did. */
const THROWING_SECRET = "sk-throwing-redaction-4b1d77e0";
const brokenVaultPlugin = definePlugin({
  id: "broken-vault",
  version: "1.0.0",
  host: "^1.0.0",
  register(ctx) {
    const broken = {
      get: () => THROWING_SECRET,
      redact: () => {
        throw new SyntaxError(`Invalid regular expression: /${THROWING_SECRET}|.../: Regular expression too large`);
      },
    };
    ctx.provide(defineService({ token: VAULT_SECRETS, deps: {}, create: () => broken as unknown as VaultSecrets }));
  },
});

function captureLogs() {
  let text = "";
  const logger = pino({ level: "debug" }, new Writable({ write(chunk, _enc, done) { text += chunk; done(); } }));
  return { logger, text: () => text };
}

/** Requests `kind`, approves it as the owner, and returns the approval as GET shows it. */
async function approveAndRead(h: TestHost, kind: string, payload: unknown) {
  // The suite's own gated route (outside the OpenAPI) answers the approval it raised.
  const requested = await h.json<{ approvalId: string }>("/api/leaky", { method: "POST", body: { kind, payload } });
  assert.is(requested.status, 201, JSON.stringify(requested.body));
  const decided = await decideApproval(h, requested.body.approvalId, "approved");
  assert.is(decided.status, 200, JSON.stringify(decided.body).slice(0, 500));
  return (await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${requested.body.approvalId}`)).body.approval;
}

/** Every response that could carry an executor error, as one text. */
async function everything(h: TestHost, approval: unknown): Promise<string> {
  return JSON.stringify([
    approval,
    (await h.json<ApiBody<"getApprovals">>("/api/approvals?limit=500")).body,
    (await h.json<ApiBody<"getNotifications">>("/api/notifications?limit=500")).body,
    (await h.json<ApiBody<"getActivities">>("/api/activities?limit=1000")).body,
  ]);
}

const t = suite<{ h: TestHost; logs: () => string }>("approvals: executor errors are redacted");

t.before(async (ctx) => {
  const { logger, text } = captureLogs();
  ctx.logs = text;
  ctx.h = await startTestHost({ logger, extraPlugins: [leakyPlugin], config: { vaultKey: "redaction test passphrase" } });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

async function store(h: TestHost, name: string, value: string) {
  const res = await h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name, value }, session: true });
  assert.is(res.status, 201, `${name}: ${JSON.stringify(res.body).slice(0, 300)}`);
}

t("a stored secret quoted by an executor error is redacted everywhere it is reported", async ({ h, logs }) => {
  const secret = "sk-live-redaction-test-7f3a9c";
  await store(h, "PUBLISHER_TOKEN", secret);
  const approval = await approveAndRead(h, KIND, { names: ["PUBLISHER_TOKEN"] });
  assert.is(approval.executionStatus, "failed");
  assert.match(String(approval.executionError), /\[redacted:PUBLISHER_TOKEN\]/);
  assert.not.ok((await everything(h, approval)).includes(secret), "no response carries the value");
  assert.ok(logs().includes("gated action failed"), "the failure was logged");
  assert.not.ok(logs().includes(secret), "the log does not carry the value");
});

t("the largest secret the vault accepts (64 KiB) is redacted, and the failure is recorded", async ({ h, logs }) => {
  // 65,536 one-byte characters: exactly the vault's limit. A regex made of it is too large for V8.
  const big = randomBytes(32 * 1024).toString("hex");
  assert.is(Buffer.byteLength(big), 64 * 1024);
  await store(h, "BIG_TOKEN", big);
  const tooBig = await h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name: "TOO_BIG", value: `${big}x` }, session: true });
  assert.is(tooBig.status, 400, "one byte more is refused, so 64 KiB is the largest");
  const approval = await approveAndRead(h, KIND, { names: ["BIG_TOKEN", "BIG_TOKEN"] });
  assert.is(approval.executionStatus, "failed");
  assert.ok(approval.executedAt);
  assert.is(approval.executionError, "401 Unauthorized; sent [redacted:BIG_TOKEN] | [redacted:BIG_TOKEN]; ");
  const text = await everything(h, approval);
  // Any 40-character piece of it would already be a leak.
  for (let at = 0; at < big.length; at += 4096) assert.not.ok(text.includes(big.slice(at, at + 40)), `no response carries part of the value (at ${at})`);
  for (let at = 0; at < big.length; at += 4096) assert.not.ok(logs().includes(big.slice(at, at + 40)), `the log carries no part of the value (at ${at})`);
  assert.not.match(logs(), /Regular expression too large/);
});

t("300 secrets, regex metacharacters and a secret inside another are each redacted by name", async ({ h, logs }) => {
  const many = Array.from({ length: 300 }, (_, i) => ({ name: `MANY_${i}`, value: `many-${i}-${randomBytes(12).toString("hex")}` }));
  for (const s of many) await store(h, s.name, s.value);
  // Values that are patterns: a regex built from them unescaped would match other text or not compile.
  const meta = [
    { name: "META_DOTSTAR", value: "a.*b" },
    { name: "META_GROUP", value: "(x|y)" },
    { name: "META_DIGITS", value: "\\d+$" },
    { name: "META_BRACKET", value: "[unclosed" },
    { name: "META_MIXED", value: "^$.|?*+()[]{}\\/" },
  ];
  for (const s of meta) await store(h, s.name, s.value);
  const outer = { name: "OUTER_TOKEN", value: `outer-${randomBytes(8).toString("hex")}-inner-piece-${randomBytes(8).toString("hex")}` };
  const inner = { name: "INNER_TOKEN", value: "inner-piece" };
  await store(h, outer.name, outer.value);
  await store(h, inner.name, inner.value);

  const quoted = [many[0]!, many[150]!, many[299]!, ...meta, outer, inner];
  // "aZZb", "x", "y" and "123" are not secrets: a regex built from the values would have eaten them.
  const approval = await approveAndRead(h, KIND, { names: quoted.map((s) => s.name), extra: "aZZb x y 123 end" });
  assert.is(approval.executionStatus, "failed");
  assert.is(
    approval.executionError,
    `401 Unauthorized; sent ${quoted.map((s) => `[redacted:${s.name}]`).join(" | ")}; aZZb x y 123 end`,
    "each secret is replaced whole by its own name, the containing one by the outer name",
  );
  const text = await everything(h, approval);
  const log = logs();
  for (const s of [...many, outer]) {
    assert.not.ok(text.includes(s.value), `${s.name} in a response`);
    assert.not.ok(log.includes(s.value), `${s.name} in the log`);
  }
  assert.not.ok(log.includes(outer.value.slice(0, 20)), "no fragment of the outer secret");
});

t("a stored secret quoted by an executor's result is redacted, also where an oversized result is cut to a preview", async ({ h }) => {
  const secret = "sk-live-result-echo-5e0c2b71";
  await store(h, "ECHO_TOKEN", secret);
  const small = await approveAndRead(h, ECHO_KIND, { name: "ECHO_TOKEN", pad: 0, tail: 0 });
  assert.is(small.executionStatus, "succeeded");
  assert.is((small.executionResult as { echoed?: string }).echoed, "Authorization: Bearer [redacted:ECHO_TOKEN]");
  // Over the 64 KiB result cap with the secret across the preview's 1,000-character cut
  // (`{"echoed":"` and the header take 33 characters): no prefix of it may remain.
  const big = await approveAndRead(h, ECHO_KIND, { name: "ECHO_TOKEN", pad: 960, tail: 70_000 });
  assert.is(big.executionStatus, "succeeded");
  assert.is((big.executionResult as { truncated?: boolean }).truncated, true);
  for (const approval of [small, big]) assert.not.ok(JSON.stringify(approval).includes(secret.slice(0, 12)), "no response carries the value or a prefix of it");
});

t("an executor result that cannot be serialised is noted; the execution still ends succeeded, never running", async ({ h }) => {
  const approval = await approveAndRead(h, WEIRD_KIND, {});
  assert.is(approval.executionStatus, "succeeded");
  assert.is((approval.executionResult as { unserialisable?: boolean }).unserialisable, true);
  assert.ok(approval.executedAt);
});

t.run();

const broken = suite("approvals: a redaction that fails withholds the message");

broken("redaction that throws: executionError is a fixed message, the failure is recorded, nothing leaks", async () => {
  const { logger, text } = captureLogs();
  const plugins: PluginDefinition[] = [activitiesPlugin, notificationsPlugin, approvalsPlugin, brokenVaultPlugin, leakyPlugin];
  await withTestHost({ logger, plugins }, async (h) => {
    const approval = await approveAndRead(h, KIND, { names: ["ANY"] });
    assert.is(approval.executionStatus, "failed");
    assert.is(approval.executionError, "[redaction failed: output withheld]");
    assert.not.ok((await everything(h, approval)).includes(THROWING_SECRET), "no response carries the value");
    assert.not.ok(text().includes(THROWING_SECRET), "the log carries neither the message nor the redaction error");
    assert.not.match(text(), /Regular expression too large/);
    const notes = (await h.json<ApiBody<"getNotifications">>("/api/notifications?limit=500")).body.notifications;
    assert.ok(notes.some((n) => n.priority === "urgent" && n.body === "[redaction failed: output withheld]"));
  });
});

broken.run();

const stuck = suite("approvals: an executor that never settles");

const STUCK_KIND = "stuck.send";
/** `stuck.send` never settles, as an HTTP call without a timeout to a peer that never answers. */
const stuckPlugin = definePlugin({
  id: "stuck",
  version: "1.0.0",
  host: "^1.0.0",
  dependsOn: ["approvals"],
  paths: ["/api/stuck"],
  gatedActions: [defineGatedAction({ kind: STUCK_KIND, deps: {}, create: () => ({ describe: () => "Wait forever", execute: () => new Promise(() => undefined) }) })],
  routes(router, ctx) {
    router.post(
      "/api/stuck",
      { summary: "Request the stuck action", status: 201, body: z.strictObject({}) },
      async () => ({ ok: true, ...(await ctx.gate.request(STUCK_KIND, {}, { requestedBy: "scribe", title: "Wait" })) }),
    );
  },
});

stuck("is recorded failed after executionTimeoutMs (it may still take effect): the approval never stays running, PATCH answers", async () => {
  const plugins: PluginDefinition[] = [activitiesPlugin, notificationsPlugin, approvalsPlugin, stuckPlugin];
  await withTestHost({ plugins, config: { pluginConfig: { approvals: { executionTimeoutMs: 200 } } } }, async (h) => {
    const requested = await h.json<{ approvalId: string }>("/api/stuck", { method: "POST", body: {} }); // the suite's own route, outside the OpenAPI
    assert.is(requested.status, 201, JSON.stringify(requested.body));
    const decided = await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${requested.body.approvalId}`, { method: "PATCH", body: { status: "approved" }, session: true, signal: AbortSignal.timeout(10_000) });
    assert.is(decided.status, 200, JSON.stringify(decided.body).slice(0, 500));
    assert.is(decided.body.approval.executionStatus, "failed");
    assert.match(String(decided.body.approval.executionError), /did not finish within 200 ms/);
    assert.match(String(decided.body.approval.executionError), /may still take effect/);
    assert.is((await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${requested.body.approvalId}`)).body.approval.executionStatus, "failed");
  });
});

stuck.run();
