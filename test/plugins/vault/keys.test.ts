// Passphrase states at start-up: none (locked), wrong (key check fails, rows untouched),
// the GATEWAY_TOKEN fallback, and damaged key metadata. The rest of Muster keeps running.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { captureLogger, KEY, openRaw, post, type RawSecret, startVaultHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";
import { sqliteFileTest } from "../../helpers/database-file.ts";

const t = suite<{ home: string }>("vault passphrase states");

t.before((ctx) => {
  ctx.home = mkdtempSync(join(tmpdir(), "muster-vault-keys-"));
});
t.after((ctx) => removeHome(ctx.home));

/** Every vault endpoint, called with valid input. */
async function everyEndpoint(h: TestHost) {
  return [
    await h.json<ApiBody<"getVault">>("/api/vault"),
    await post(h, "/api/vault", { name: "NEW_ONE", value: "new-secret-value" }),
    await h.json<ApiBody<"deleteVault">>("/api/vault?name=STORED", { method: "DELETE", session: true }),
    await post(h, "/api/vault/reveal", { name: "STORED" }, { session: true }),
    await post(h, "/api/vault/inject", { name: "STORED", envVar: "STORED_TOKEN" }, { session: true }),
  ];
}

function snapshot(home: string) {
  const db = openRaw(home);
  try {
    return {
      secrets: db.prepare("SELECT * FROM vault_secrets ORDER BY id").all() as RawSecret[],
      meta: db.prepare("SELECT * FROM vault_meta ORDER BY key").all() as { key: string; value: string }[],
    };
  } finally {
    db.close();
  }
}

async function otherFeaturesRun(h: TestHost) {
  assert.is((await h.json<ApiBody<"getHealth">>("/api/health")).status, 200);
  assert.is((await h.json<ApiBody<"getActivities">>("/api/activities")).status, 200);
}

sqliteFileTest(t, "compares the rows of muster.db at rest")("no passphrase: every endpoint answers 503 VAULT_LOCKED naming VAULT_KEY; nothing is written", async ({ home }) => {
  const logs = captureLogger();
  const h = await startVaultHost({ home, vaultKey: null, gatewayToken: null, logger: logs.logger });
  try {
    for (const res of await everyEndpoint(h)) {
      assert.is(res.status, 503);
      assert.is(res.body.error?.code, "VAULT_LOCKED");
      assert.ok(res.body.error?.message.includes("VAULT_KEY"));
    }
    await otherFeaturesRun(h);
    assert.equal(snapshot(home), { secrets: [], meta: [] });
    assert.ok(logs.text().includes("vault locked"));
  } finally {
    await h.stop();
  }
});

sqliteFileTest(t, "compares the rows of muster.db at rest")("first start with a passphrase initialises the key; a wrong one locks the vault without touching rows", async ({ home }) => {
  let h = await startVaultHost({ home });
  assert.is((await post(h, "/api/vault", { name: "STORED", value: "stored-secret-value" })).status, 201);
  await h.stop();
  const before = snapshot(home);
  assert.equal(before.meta.map((m) => m.key), ["kdf", "keyCheck", "keyId", "salt"]);
  assert.equal(JSON.parse(before.meta.find((m) => m.key === "kdf")?.value ?? "null"), { N: 32768, r: 8, p: 1 });

  const logs = captureLogger();
  h = await startVaultHost({ home, vaultKey: "not the right passphrase", logger: logs.logger });
  try {
    for (const res of await everyEndpoint(h)) {
      assert.is(res.status, 503);
      assert.is(res.body.error?.code, "VAULT_WRONG_KEY");
      assert.ok(res.body.error?.message.includes("VAULT_KEY"));
    }
    await otherFeaturesRun(h);
    assert.ok(logs.text().includes("VAULT_WRONG_KEY"));
    assert.not.ok(logs.text().includes("not the right passphrase"));
  } finally {
    await h.stop();
  }
  assert.equal(snapshot(home), before);

  h = await startVaultHost({ home });
  try {
    const res = await post(h, "/api/vault/reveal", { name: "STORED" }, { session: true });
    assert.is(res.body.value, "stored-secret-value");
  } finally {
    await h.stop();
  }
});

sqliteFileTest(t, "reads the secret the tests before it stored, which read muster.db")("GATEWAY_TOKEN is the fallback passphrase; VAULT_KEY wins when both are set", async ({ home }) => {
  let h = await startVaultHost({ home, vaultKey: null, gatewayToken: KEY });
  try {
    assert.is((await post(h, "/api/vault/reveal", { name: "STORED" }, { session: true })).body.value, "stored-secret-value");
  } finally {
    await h.stop();
  }
  h = await startVaultHost({ home, vaultKey: KEY, gatewayToken: "some other gateway token" });
  try {
    assert.is((await post(h, "/api/vault/reveal", { name: "STORED" }, { session: true })).body.value, "stored-secret-value");
  } finally {
    await h.stop();
  }
  h = await startVaultHost({ home, vaultKey: null, gatewayToken: "some other gateway token" });
  try {
    const res = await h.json<ApiBody<"getVault">>("/api/vault");
    assert.is(res.body.error?.code, "VAULT_WRONG_KEY");
    assert.ok(res.body.error?.message.includes("GATEWAY_TOKEN"));
  } finally {
    await h.stop();
  }
});

sqliteFileTest(t, "damages the key metadata in muster.db")("damaged or missing key metadata locks the vault instead of re-keying over existing secrets", async ({ home }) => {
  const before = snapshot(home);
  let db = openRaw(home);
  db.prepare("UPDATE vault_meta SET value = 'zz' WHERE key = 'salt'").run();
  db.close();
  let h = await startVaultHost({ home });
  try {
    const res = await h.json<ApiBody<"getVault">>("/api/vault");
    assert.is(res.status, 503);
    assert.is(res.body.error?.code, "VAULT_WRONG_KEY");
  } finally {
    await h.stop();
  }
  db = openRaw(home);
  db.prepare("DELETE FROM vault_meta").run();
  db.close();
  h = await startVaultHost({ home });
  try {
    assert.is((await h.json<ApiBody<"getVault">>("/api/vault")).body.error?.code, "VAULT_WRONG_KEY");
  } finally {
    await h.stop();
  }
  assert.equal(snapshot(home).secrets, before.secrets);
  assert.equal(snapshot(home).meta, []);
});

sqliteFileTest(t, "breaks vault_meta in muster.db")("an unexpected failure while opening the vault locks it (VAULT_UNAVAILABLE) and Muster still starts", async ({ home }) => {
  const db = openRaw(home);
  db.exec("DROP TABLE vault_meta");
  db.close();
  const logs = captureLogger();
  const h = await startVaultHost({ home, logger: logs.logger });
  try {
    const res = await h.json<ApiBody<"getVault">>("/api/vault");
    assert.is(res.status, 503);
    assert.is(res.body.error?.code, "VAULT_UNAVAILABLE");
    await otherFeaturesRun(h);
    assert.ok(logs.text().includes("the vault could not be opened"));
  } finally {
    await h.stop();
  }
});

t.run();
