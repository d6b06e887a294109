// Proof that stored values never leave the vault except through reveal (and inject into
// child environments): not in the database file (main, -wal, -shm), the logs, the list
// responses, error responses or bus events.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { captureLogger, createProbe, flipHex, KEY, openRaw, post, rawRows, startVaultHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";
import { sqliteFileTest } from "../../helpers/database-file.ts";

const VALUES: Record<string, string> = {
  LINKEDIN_ACCESS_TOKEN: "AQX-linkedin-plaintext-7f3a9c",
  TWITTER_API_KEY: '{"apiKey":"tw-key-55aa","apiSecret":"tw-secret-66bb"}',
  UNICODE_SECRET: "pässwörd-🔐-unicode-secret",
  LONG_SECRET: `long-${"Z9".repeat(20_000)}-end`,
  TO_BE_DELETED: "deleted-secret-plaintext-0001",
  TO_BE_UPDATED: "original-value-before-update",
  CORRUPT_ME: "value-of-a-secret-that-gets-corrupted",
};
const UPDATED = "updated-value-after-update-9988";
const ALL = [...Object.values(VALUES), UPDATED, "tw-key-55aa", "tw-secret-66bb"];

const t = suite<{ h: TestHost; logs: ReturnType<typeof captureLogger>; probe: ReturnType<typeof createProbe>; responses: string[] }>("vault never leaks");

t.before(async (ctx) => {
  ctx.logs = captureLogger();
  ctx.probe = createProbe();
  ctx.responses = [];
  ctx.h = await startVaultHost({ logger: ctx.logs.logger, extraPlugins: [ctx.probe.plugin] });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

function assertAbsent(haystack: string | Buffer, where: string) {
  const text = Buffer.isBuffer(haystack) ? haystack : Buffer.from(haystack, "utf8");
  for (const value of [...ALL, KEY]) {
    assert.is(text.indexOf(Buffer.from(value, "utf8")), -1, `${where} contains ${value.slice(0, 24)}`);
    assert.is(text.indexOf(Buffer.from(value, "utf16le")), -1, `${where} contains (utf-16) ${value.slice(0, 24)}`);
  }
}

sqliteFileTest(t, "reads the database files (muster.db and its WAL) for values at rest")("every operation, then: list and error responses, logs, events and the database files hold no value", async (ctx) => {
  const { h } = ctx;
  const keep = <R extends { status: number; body: unknown; headers: Headers }>(res: R): R => {
    ctx.responses.push(JSON.stringify(res.body) + JSON.stringify([...res.headers]));
    return res;
  };
  for (const [name, value] of Object.entries(VALUES)) assert.is(keep(await post(h, "/api/vault", { name, value })).status, 201);
  keep(await post(h, "/api/vault", { name: "TO_BE_UPDATED", value: UPDATED, description: "updated" }));
  keep(await post(h, "/api/vault", { name: "bad name", value: VALUES.LINKEDIN_ACCESS_TOKEN }));
  keep(await post(h, "/api/vault", { name: "TOO_BIG", value: `${VALUES.LINKEDIN_ACCESS_TOKEN}${"x".repeat(70_000)}` }));
  keep(await post(h, "/api/vault", { name: "X", value: VALUES.LINKEDIN_ACCESS_TOKEN, extra: VALUES.UNICODE_SECRET }));
  keep(await post(h, "/api/vault/inject", { name: "LINKEDIN_ACCESS_TOKEN", envVar: "LINKEDIN_ACCESS_TOKEN" }, { session: true }));
  keep(await post(h, "/api/vault/inject", { name: "LINKEDIN_ACCESS_TOKEN", envVar: "PATH" }, { session: true }));
  keep(await h.json<ApiBody<"deleteVault">>("/api/vault?name=TO_BE_DELETED", { method: "DELETE", session: true }));
  const row = rawRows(h.home).find((r) => r.name === "CORRUPT_ME")!;
  const db = openRaw(h.home);
  db.prepare("UPDATE vault_secrets SET ciphertext = ? WHERE name = 'CORRUPT_ME'").run(flipHex(row.ciphertext, 5));
  db.close();
  const corrupted = keep(await post(h, "/api/vault/reveal", { name: "CORRUPT_ME" }, { session: true }));
  assert.is(corrupted.body.error?.code, "VAULT_SECRET_CORRUPTED");
  keep(await post(h, "/api/vault/reveal", { name: "LINKEDIN_ACCESS_TOKEN" }, { session: true, headers: { "x-agent-id": "loki" } }));
  // The one legitimate plaintext answer, kept out of the checked responses.
  assert.is((await post(h, "/api/vault/reveal", { name: "TWITTER_API_KEY" }, { session: true })).body.value, VALUES.TWITTER_API_KEY);
  for (let i = 0; i < 3; i++) {
    const list = keep(await h.json<ApiBody<"getVault">>("/api/vault"));
    assert.is(list.body.secrets.length, 6);
  }
  keep(await h.json<ApiBody<"getActivities">>("/api/activities?limit=1000"));
  keep(await h.json("/api/openapi.json"));

  for (const [i, text] of ctx.responses.entries()) assertAbsent(text, `response ${i}`);
  assertAbsent(JSON.stringify(ctx.probe.events), "bus events");
  assert.ok(ctx.probe.events.some((e) => e.name === "vault.secret.created"));

  const files = ["muster.db", "muster.db-wal", "muster.db-shm"].map((f) => join(h.home, f)).filter(existsSync);
  assert.ok(files.some((f) => f.endsWith("-wal")), "the WAL file is checked while the server runs");
  for (const file of files) assertAbsent(readFileSync(file), file);

  await h.stop();
  for (const file of ["muster.db", "muster.db-wal"].map((f) => join(h.home, f)).filter(existsSync)) assertAbsent(readFileSync(file), `${file} after stop`);
  const logs = ctx.logs.text();
  assert.ok(logs.includes('"msg":"request"'), "request logs were captured");
  assert.ok(logs.includes("VAULT_SECRET_CORRUPTED"), "the corruption was logged (by name)");
  assertAbsent(logs, "logs");
  ctx.h = await ctx.h.restart();
});

t.run();
