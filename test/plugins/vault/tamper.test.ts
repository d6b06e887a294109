// Stored ciphertexts altered behind the server's back: each broken secret reports
// VAULT_SECRET_CORRUPTED on its own, the others stay readable, nothing crashes.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { randomBytes } from "node:crypto";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { open, seal } from "../../../plugins/vault/crypto/cipher.ts";
import { createProbe, flipHex, openRaw, post, rawRows, startVaultHost, type RawSecret } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";
import { sqliteFileTest } from "../../helpers/database-file.ts";

const t = suite<{ h: TestHost; probe: ReturnType<typeof createProbe> }>("vault tamper and IVs");

const VALUES: Record<string, string> = {
  CT_FLIP: "value-for-ciphertext-flip",
  IV_FLIP: "value-for-iv-flip",
  TAG_FLIP: "value-for-tag-flip",
  TAG_SHORT: "value-for-short-tag",
  CT_SHORT: "value-for-short-ciphertext",
  MOVED_TO: "value-of-the-target-row",
  MOVED_FROM: "value-of-the-source-row",
  RENAMED: "value-of-a-renamed-row",
  INTACT: "value-that-stays-intact",
};

t.before(async (ctx) => {
  ctx.probe = createProbe();
  ctx.h = await startVaultHost({ extraPlugins: [ctx.probe.plugin] });
  for (const [name, value] of Object.entries(VALUES)) assert.is((await post(ctx.h, "/api/vault", { name, value })).status, 201);
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const reveal = (h: TestHost, name: string) => post(h, "/api/vault/reveal", { name }, { session: true });

sqliteFileTest(t, "reads the sealed rows in muster.db")("stored rows hold a 16-byte IV, a 16-byte tag and no plaintext", ({ h }) => {
  for (const row of rawRows(h.home)) {
    assert.match(row.iv, /^[0-9a-f]{32}$/);
    assert.match(row.tag, /^[0-9a-f]{32}$/);
    assert.is(row.ciphertext.length, Buffer.byteLength(VALUES[row.name]!) * 2);
    assert.not.ok(row.ciphertext.includes(Buffer.from(VALUES[row.name]!).toString("hex")));
  }
});

sqliteFileTest(t, "tampers with rows in muster.db")("bit flips, truncation, a moved ciphertext and a renamed row are each reported as corrupted", async ({ h, probe }) => {
  const rows = new Map(rawRows(h.home).map((r) => [r.name, r]));
  const row = (name: string) => rows.get(name)!;
  const db = openRaw(h.home);
  const set = (name: string, fields: Partial<RawSecret>) => {
    for (const [column, value] of Object.entries(fields)) db.prepare(`UPDATE vault_secrets SET ${column} = ? WHERE name = ?`).run(value, name);
  };
  set("CT_FLIP", { ciphertext: flipHex(row("CT_FLIP").ciphertext, 3) });
  set("IV_FLIP", { iv: flipHex(row("IV_FLIP").iv, 15) });
  set("TAG_FLIP", { tag: flipHex(row("TAG_FLIP").tag, 0) });
  set("TAG_SHORT", { tag: row("TAG_SHORT").tag.slice(0, 8) }); // 4-byte tag: GCM would accept it without authTagLength
  set("CT_SHORT", { ciphertext: row("CT_SHORT").ciphertext.slice(0, -2) });
  const from = row("MOVED_FROM");
  set("MOVED_TO", { ciphertext: from.ciphertext, iv: from.iv, tag: from.tag });
  db.prepare("UPDATE vault_secrets SET name = 'RENAMED_NOW' WHERE name = 'RENAMED'").run();
  db.close();

  for (const name of ["CT_FLIP", "IV_FLIP", "TAG_FLIP", "TAG_SHORT", "CT_SHORT", "MOVED_TO", "RENAMED_NOW"]) {
    const res = await reveal(h, name);
    assert.is(res.status, 500, name);
    assert.is(res.body.error?.code, "VAULT_SECRET_CORRUPTED", name);
    assert.ok(res.body.error?.message.includes(name), name);
    for (const value of Object.values(VALUES)) assert.not.ok(JSON.stringify(res.body).includes(value), name);
  }
  for (const name of ["INTACT", "MOVED_FROM"]) {
    const res = await reveal(h, name);
    assert.is(res.status, 200, name);
    assert.is(res.body.value, VALUES[name]);
  }
  const list = await h.json<ApiBody<"getVault">>("/api/vault");
  assert.is(list.status, 200);
  assert.is(list.body.secrets.length, Object.keys(VALUES).length);
  const inject = await post(h, "/api/vault/inject", { name: "TAG_FLIP", envVar: "SOME_TOKEN" }, { session: true });
  assert.is(inject.body.error?.code, "VAULT_SECRET_CORRUPTED");
  assert.equal(probe.environment!.variables(), []);
});

sqliteFileTest(t, "tampers with rows in muster.db")("the vault.secrets service reports corruption per secret and still redacts the others", ({ probe }) => {
  const secrets = probe.secrets!;
  assert.throws(() => secrets.get("CT_FLIP"), (e: unknown) => (e as { code?: string }).code === "VAULT_SECRET_CORRUPTED");
  assert.is(secrets.get("INTACT"), VALUES.INTACT);
  assert.is(secrets.get("NO_SUCH_SECRET"), null);
  assert.is(secrets.redact(`a ${VALUES.INTACT} b`), "a [redacted:INTACT] b");
});

t("storing a corrupted secret again replaces it", async ({ h }) => {
  const res = await post(h, "/api/vault", { name: "CT_FLIP", value: "fresh-value-after-repair" });
  assert.is(res.status, 200);
  assert.is((await reveal(h, "CT_FLIP")).body.value, "fresh-value-after-repair");
});

sqliteFileTest(t, "reads the sealed rows in muster.db")("every encryption uses a fresh IV: the same value stored 200 times never repeats IV or ciphertext", async ({ h }) => {
  const ivs = new Set<string>();
  const ciphertexts = new Set<string>();
  for (let i = 0; i < 200; i++) {
    await post(h, "/api/vault", { name: "SAME_VALUE", value: "identical-plaintext" });
    const row = rawRows(h.home).find((r) => r.name === "SAME_VALUE")!;
    ivs.add(row.iv);
    ciphertexts.add(`${row.ciphertext}:${row.tag}`);
  }
  assert.is(ivs.size, 200);
  assert.is(ciphertexts.size, 200);
  await post(h, "/api/vault", { name: "SAME_VALUE_TOO", value: "identical-plaintext" });
  const [a, b] = ["SAME_VALUE", "SAME_VALUE_TOO"].map((n) => rawRows(h.home).find((r) => r.name === n)!);
  assert.is.not(a!.ciphertext, b!.ciphertext);
});

t("seal() over 10,000 encryptions: no IV repeats, and each opens only under its own identity", () => {
  const key = randomBytes(32);
  const ivs = new Set<string>();
  const identity = { id: "00000000-0000-4000-8000-000000000000", name: "X" };
  let last = seal(key, identity, "v");
  for (let i = 0; i < 10_000; i++) {
    last = seal(key, identity, "same value");
    ivs.add(last.iv);
  }
  assert.is(ivs.size, 10_000);
  assert.is(open(key, identity, last), "same value");
  assert.throws(() => open(key, { ...identity, name: "Y" }, last));
  assert.throws(() => open(key, { ...identity, id: "00000000-0000-4000-8000-000000000001" }, last));
  assert.throws(() => open(randomBytes(32), identity, last));
});

t("the key is derived once at start-up, not per request", async ({ h, probe }) => {
  for (let i = 0; i < 100; i++) await (i % 2 ? h.json<ApiBody<"getVault">>("/api/vault") : reveal(h, "INTACT"));
  assert.is(probe.secrets!.status().keyDerivations, 1);
});

t.run();
