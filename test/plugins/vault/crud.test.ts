import { suite } from "uvu";
import * as assert from "uvu/assert";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { sleep } from "../../helpers/wait.ts";
import { createProbe, post, rawRows, startVaultHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost; probe: ReturnType<typeof createProbe> }>("vault endpoints");

t.before(async (ctx) => {
  ctx.probe = createProbe();
  ctx.h = await startVaultHost({ extraPlugins: [ctx.probe.plugin] });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("POST creates (201) with defaults; GET lists metadata only", async ({ h }) => {
  const created = await post(h, "/api/vault", { name: "OPENAI_API_KEY", value: "sk-live-abcdef123456" });
  assert.is(created.status, 201);
  assert.is(created.body.ok, true);
  const s = created.body.secret;
  assert.match(s.id, /^[0-9a-f-]{36}$/);
  assert.equal(
    { name: s.name, description: s.description, category: s.category, createdBy: s.createdBy, lastAccessedAt: s.lastAccessedAt },
    { name: "OPENAI_API_KEY", description: null, category: "api_key", createdBy: "owner", lastAccessedAt: null },
  );
  assert.is(s.createdAt, s.updatedAt);
  assert.not.ok("value" in s);
  const list = await h.json<ApiBody<"getVault">>("/api/vault");
  assert.is(list.status, 200);
  assert.is(list.headers.get("cache-control"), "no-store");
  assert.equal(Object.keys(list.body).sort(), ["ok", "secrets"]);
  assert.equal(list.body.secrets, [s]);
});

t("POST with an existing name updates (200), keeps id, createdBy, and omitted description/category", async ({ h }) => {
  const first = await post(h, "/api/vault", { name: "LINKEDIN_ACCESS_TOKEN", value: "tok-one-1111", description: "LinkedIn", category: "system", createdBy: "daniel" });
  assert.is(first.status, 201);
  assert.is(first.body.secret.createdBy, "daniel");
  await sleep(5); // a sleep on purpose: updatedAt must move past createdAt (ms clock)
  const second = await post(h, "/api/vault", { name: "LINKEDIN_ACCESS_TOKEN", value: "tok-two-2222", createdBy: "someone-else" });
  assert.is(second.status, 200);
  const a = first.body.secret;
  const b = second.body.secret;
  assert.is(b.id, a.id);
  assert.is(b.createdBy, "daniel");
  assert.is(b.description, "LinkedIn");
  assert.is(b.category, "system");
  assert.is(b.createdAt, a.createdAt);
  assert.ok(b.updatedAt > a.updatedAt);
  const cleared = await post(h, "/api/vault", { name: "LINKEDIN_ACCESS_TOKEN", value: "tok-two-2222", description: null, category: "oauth" });
  assert.is(cleared.body.secret.description, null);
  assert.is(cleared.body.secret.category, "oauth");
  const revealed = await post(h, "/api/vault/reveal", { name: "LINKEDIN_ACCESS_TOKEN" }, { session: true });
  assert.is(revealed.body.value, "tok-two-2222");
});

t("createdBy defaults to the calling agent", async ({ h }) => {
  const res = await post(h, "/api/vault", { name: "AGENT_TOKEN", value: "agent-value-xyz" }, { headers: { "x-agent-id": "loki" } });
  assert.is(res.status, 201);
  assert.is(res.body.secret.createdBy, "loki");
});

t("reveal: session token required, agents refused, no-store, lastAccessedAt set, activity logged", async ({ h }) => {
  await post(h, "/api/vault", { name: "TELEGRAM_BOT_TOKEN", value: "123456:telegram-secret" });
  const noToken = await post(h, "/api/vault/reveal", { name: "TELEGRAM_BOT_TOKEN" });
  assert.is(noToken.status, 401);
  assert.is(noToken.body.error?.code, "SESSION_TOKEN_REQUIRED");
  const agent = await post(h, "/api/vault/reveal", { name: "TELEGRAM_BOT_TOKEN" }, { session: true, headers: { "x-agent-id": "odin" } });
  assert.is(agent.status, 403);
  assert.is(agent.body.error?.code, "VAULT_AGENT_FORBIDDEN");
  const untouched = (await h.json<ApiBody<"getVault">>("/api/vault")).body.secrets.find((s) => s.name === "TELEGRAM_BOT_TOKEN");
  assert.ok(untouched);
  assert.is(untouched.lastAccessedAt, null);

  const ok = await post(h, "/api/vault/reveal", { name: "TELEGRAM_BOT_TOKEN" }, { session: true });
  assert.is(ok.status, 200);
  assert.equal(ok.body, { ok: true, name: "TELEGRAM_BOT_TOKEN", value: "123456:telegram-secret" });
  assert.is(ok.headers.get("cache-control"), "no-store");
  const after = (await h.json<ApiBody<"getVault">>("/api/vault")).body.secrets.find((s) => s.name === "TELEGRAM_BOT_TOKEN");
  assert.ok(after);
  assert.match(after.lastAccessedAt ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const activities = (await h.json<ApiBody<"getActivities">>("/api/activities?action=vault_secret_revealed")).body;
  assert.is(activities[0]?.target, "TELEGRAM_BOT_TOKEN");
  assert.is(activities[0]?.agentId, "owner");

  const missing = await post(h, "/api/vault/reveal", { name: "NOPE" }, { session: true });
  assert.is(missing.status, 404);
  assert.is(missing.body.error?.code, "VAULT_SECRET_NOT_FOUND");
});

t("DELETE needs the session token, 404 for unknown names, then the secret is gone", async ({ h }) => {
  await post(h, "/api/vault", { name: "TEMP_SECRET", value: "temporary-value" });
  const noToken = await h.json<ApiBody<"deleteVault">>("/api/vault?name=TEMP_SECRET", { method: "DELETE" });
  assert.is(noToken.status, 401);
  const wrongToken = await h.json<ApiBody<"deleteVault">>("/api/vault?name=TEMP_SECRET", { method: "DELETE", headers: { "x-session-token": "0".repeat(64) } });
  assert.is(wrongToken.status, 401);
  assert.ok((await h.json<ApiBody<"getVault">>("/api/vault")).body.secrets.some((s) => s.name === "TEMP_SECRET"));
  const unknown = await h.json<ApiBody<"deleteVault">>("/api/vault?name=NOT_THERE", { method: "DELETE", session: true });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error?.code, "VAULT_SECRET_NOT_FOUND");
  const ok = await h.json<ApiBody<"deleteVault">>("/api/vault?name=TEMP_SECRET", { method: "DELETE", session: true });
  assert.is(ok.status, 200);
  assert.equal(ok.body, { ok: true });
  assert.not.ok((await h.json<ApiBody<"getVault">>("/api/vault")).body.secrets.some((s) => s.name === "TEMP_SECRET"));
  const again = await h.json<ApiBody<"deleteVault">>("/api/vault?name=TEMP_SECRET", { method: "DELETE", session: true });
  assert.is(again.status, 404);
});

sqliteFileTest(t, "compares the rows of muster.db at rest")("bad input: 400 VALIDATION_FAILED and nothing stored or changed", async ({ h }) => {
  const before = rawRows(h.home);
  const bigValue = "x".repeat(64 * 1024 + 1);
  const multiByte = "é".repeat(32 * 1024 + 1); // 65538 bytes in UTF-8
  const bodies: [unknown, string][] = [
    [{}, "empty"],
    [{ name: "OK_NAME" }, "no value"],
    [{ value: "v-v-v-v" }, "no name"],
    [{ name: "1STARTS_WITH_DIGIT", value: "abcd" }, "leading digit"],
    [{ name: "has space", value: "abcd" }, "space"],
    [{ name: "../etc/passwd", value: "abcd" }, "path"],
    [{ name: "a/b", value: "abcd" }, "slash"],
    [{ name: "x'; DROP TABLE vault_secrets;--", value: "abcd" }, "sql"],
    [{ name: "NUL\u0000BYTE", value: "abcd" }, "nul"],
    [{ name: "LINE\nBREAK", value: "abcd" }, "control char"],
    [{ name: "A".repeat(129), value: "abcd" }, "129 chars"],
    [{ name: "", value: "abcd" }, "empty name"],
    [{ name: "OK_NAME", value: "" }, "empty value"],
    [{ name: "OK_NAME", value: bigValue }, "value over 64 KiB"],
    [{ name: "OK_NAME", value: multiByte }, "value over 64 KiB in bytes"],
    [{ name: "OK_NAME", value: 42 }, "number value"],
    [{ name: "OK_NAME", value: null }, "null value"],
    [{ name: ["OK_NAME"], value: "abcd" }, "array name"],
    [{ name: "OK_NAME", value: "abcd", id: "mine" }, "read-only id"],
    [{ name: "OK_NAME", value: "abcd", lastAccessedAt: new Date().toISOString() }, "read-only lastAccessedAt"],
    [{ name: "OK_NAME", value: "abcd", extra: 1 }, "unknown field"],
    [{ name: "OK_NAME", value: "abcd", description: 5 }, "description type"],
    [{ name: "OK_NAME", value: "abcd", category: "" }, "empty category"],
    [{ name: "OK_NAME", value: "abcd", createdBy: "" }, "empty createdBy"],
    [[], "array body"],
  ];
  for (const [body, label] of bodies) {
    const res = await post(h, "/api/vault", body);
    assert.is(res.status, 400, label);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", label);
  }
  assert.ok(Buffer.byteLength(multiByte) > 64 * 1024 && multiByte.length < 64 * 1024);
  const exact = await post(h, "/api/vault", { name: "MAX_SIZE", value: "y".repeat(64 * 1024) });
  assert.is(exact.status, 201, "exactly 64 KiB is accepted");
  const longName = await post(h, "/api/vault", { name: `a${"b".repeat(127)}`, value: "abcd" });
  assert.is(longName.status, 201, "128-character name is accepted");
  await h.json<ApiBody<"deleteVault">>(`/api/vault?name=MAX_SIZE`, { method: "DELETE", session: true });
  await h.json<ApiBody<"deleteVault">>(`/api/vault?name=a${"b".repeat(127)}`, { method: "DELETE", session: true });

  for (const [path, body] of [
    ["/api/vault/reveal", {}],
    ["/api/vault/reveal", { name: "../x" }],
    ["/api/vault/reveal", { name: "OPENAI_API_KEY", full: true }],
    ["/api/vault/inject", { name: "OPENAI_API_KEY" }],
    ["/api/vault/inject", { name: "OPENAI_API_KEY", envVar: "lower_case" }],
    ["/api/vault/inject", { name: "OPENAI_API_KEY", envVar: "1ABC" }],
    ["/api/vault/inject", { name: "OPENAI_API_KEY", envVar: "A-B" }],
    ["/api/vault/inject", { name: "OPENAI_API_KEY", envVar: "A=B" }],
    ["/api/vault/inject", { name: "OPENAI_API_KEY", envVar: "" }],
  ] as const) {
    const res = await post(h, path, body, { session: true });
    assert.is(res.status, 400, `${path} ${JSON.stringify(body)}`);
    assert.is(res.body.error?.code, "VALIDATION_FAILED");
  }
  for (const q of ["", "?name=", "?name=..%2F..%2Fx", "?name=OPENAI_API_KEY&extra=1", `?name=${"A".repeat(129)}`]) {
    const res = await h.json(`/api/vault${q}`, { method: "DELETE", session: true });
    assert.is(res.status, 400, q);
  }
  assert.is((await h.json<ApiBody<"getVault">>("/api/vault?x=1")).status, 400);
  const malformed = await h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: '{"name":', headers: { "content-type": "application/json" } });
  assert.is(malformed.body.error?.code, "INVALID_JSON");
  const text = await h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: "name=A&value=b", headers: { "content-type": "text/plain" } });
  assert.is(text.status, 415);
  assert.equal(rawRows(h.home), before);
});

t("events carry metadata only; list survives a restart", async (ctx) => {
  const names = ctx.probe.events.map((e) => e.name);
  assert.ok(names.includes("vault.secret.created"));
  assert.ok(names.includes("vault.secret.updated"));
  assert.ok(names.includes("vault.secret.deleted"));
  assert.ok(names.includes("vault.secret.revealed"));
  const created = ctx.probe.events.find((e) => e.name === "vault.secret.created")!;
  assert.equal(Object.keys(created.payload as object).sort(), ["category", "createdBy", "id", "name"]);
  assert.is(created.public, true);
  assert.is(ctx.probe.events.find((e) => e.name === "vault.secret.revealed")!.public, false);
  const before = (await ctx.h.json<ApiBody<"getVault">>("/api/vault")).body.secrets;
  ctx.h = await ctx.h.restart();
  assert.equal((await ctx.h.json<ApiBody<"getVault">>("/api/vault")).body.secrets, before);
  const revealed = await post(ctx.h, "/api/vault/reveal", { name: "OPENAI_API_KEY" }, { session: true });
  assert.is(revealed.body.value, "sk-live-abcdef123456");
});

t.run();
