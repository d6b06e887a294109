// `muster vault rotate` run as a real child process against a home written by a test host.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeHome } from "../../helpers/start-test-host.ts";
import { flipHex, KEY, openRaw, post, rawRows, type RawSecret, startVaultHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";
import { sqliteFileTest } from "../../helpers/database-file.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;
const NEW_KEY = "a brand new passphrase for the vault";
const VALUES: Record<string, string> = {
  FIRST_SECRET: "first-secret-value-111",
  SECOND_SECRET: "second \"quoted\" value\nwith a newline",
  THIRD_SECRET: "third-värde-🔑-333",
};

interface CliResult { code: number | null; stdout: string; stderr: string }

/** Runs `node --import tsx core/main.ts vault ...` with only the given environment. */
function muster(args: string[], env: Record<string, string>, stdin?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["core/main.ts", ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`muster ${args.join(" ")} timed out; stderr: ${stderr}`));
    }, 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin ?? "");
  });
}

function snapshot(home: string) {
  const db = openRaw(home);
  try {
    return { secrets: db.prepare("SELECT * FROM vault_secrets ORDER BY id").all() as RawSecret[], meta: db.prepare("SELECT * FROM vault_meta ORDER BY key").all() as { key: string; value: string }[] };
  } finally {
    db.close();
  }
}

async function revealAll(home: string, vaultKey: string) {
  const h = await startVaultHost({ home, vaultKey });
  try {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(VALUES)) {
      const res = await post(h, "/api/vault/reveal", { name }, { session: true });
      out[name] = res.status === 200 ? res.body.value : res.body.error?.code;
    }
    return out;
  } finally {
    await h.stop();
  }
}

const noLeak = (r: CliResult) => {
  for (const secret of [KEY, NEW_KEY, ...Object.values(VALUES)]) assert.not.ok(`${r.stdout}${r.stderr}`.includes(secret));
};

const t = suite<{ home: string }>("muster vault rotate");

t.before(async (ctx) => {
  ctx.home = mkdtempSync(join(tmpdir(), "muster-vault-rotate-"));
  const h = await startVaultHost({ home: ctx.home });
  for (const [name, value] of Object.entries(VALUES)) assert.is((await post(h, "/api/vault", { name, value })).status, 201);
  await h.stop();
});
t.after((ctx) => removeHome(ctx.home));

sqliteFileTest(t, "checks the rows of muster.db are unchanged")("refuses without the right current passphrase and changes nothing", async ({ home }) => {
  const before = snapshot(home);
  const wrong = await muster(["vault", "rotate"], { MUSTER_HOME: home, VAULT_KEY: "wrong passphrase", NEW_VAULT_KEY: NEW_KEY });
  assert.is(wrong.code, 1);
  assert.match(wrong.stderr, /VAULT_WRONG_KEY/);
  const none = await muster(["vault", "rotate"], { MUSTER_HOME: home, NEW_VAULT_KEY: NEW_KEY });
  assert.is(none.code, 1);
  assert.match(none.stderr, /VAULT_LOCKED.*VAULT_KEY/);
  const empty = await muster(["vault", "rotate"], { MUSTER_HOME: home, VAULT_KEY: KEY }, "");
  assert.is(empty.code, 1);
  assert.match(empty.stderr, /VAULT_NEW_KEY_MISSING/);
  const usage = await muster(["vault"], { MUSTER_HOME: home, VAULT_KEY: KEY });
  assert.is(usage.code, 2);
  assert.match(usage.stderr, /muster vault rotate/);
  const noDb = await muster(["vault", "rotate"], { MUSTER_HOME: join(home, "nowhere"), VAULT_KEY: KEY, NEW_VAULT_KEY: NEW_KEY });
  assert.is(noDb.code, 1);
  assert.match(noDb.stderr, /VAULT_NO_DATABASE/);
  for (const r of [wrong, none, empty, usage, noDb]) noLeak(r);
  assert.equal(snapshot(home), before);
});

sqliteFileTest(t, "corrupts a row in muster.db")("a corrupted secret aborts the whole rotation: rows re-encrypted before it are rolled back", async ({ home }) => {
  const before = snapshot(home);
  const last = rawRows(home).find((r) => r.name === "THIRD_SECRET")!; // inserted last, rotated last
  let db = openRaw(home);
  db.prepare("UPDATE vault_secrets SET tag = ? WHERE name = 'THIRD_SECRET'").run(flipHex(last.tag));
  db.close();
  const res = await muster(["vault", "rotate"], { MUSTER_HOME: home, VAULT_KEY: KEY, NEW_VAULT_KEY: NEW_KEY });
  assert.is(res.code, 1);
  assert.match(res.stderr, /VAULT_SECRET_CORRUPTED: Secret THIRD_SECRET/);
  noLeak(res);
  db = openRaw(home);
  db.prepare("UPDATE vault_secrets SET tag = ? WHERE name = 'THIRD_SECRET'").run(last.tag);
  db.close();
  assert.equal(snapshot(home), before);
  assert.equal(await revealAll(home, KEY), VALUES);
});

sqliteFileTest(t, "reads the re-encrypted rows in muster.db")("re-encrypts every secret under NEW_VAULT_KEY with a new salt, key check and IVs", async ({ home }) => {
  const before = snapshot(home);
  const res = await muster(["vault", "rotate"], { MUSTER_HOME: home, VAULT_KEY: KEY, NEW_VAULT_KEY: NEW_KEY });
  assert.is(res.code, 0, res.stderr);
  assert.match(res.stdout, /Re-encrypted 3 secret\(s\)/);
  noLeak(res);
  const after = snapshot(home);
  const meta = (s: typeof before) => Object.fromEntries((s.meta as { key: string; value: string }[]).map((m) => [m.key, m.value]));
  for (const key of ["salt", "keyCheck", "keyId"]) assert.is.not(meta(after)[key], meta(before)[key], key);
  for (const [i, row] of after.secrets.entries()) {
    const old = before.secrets[i];
    assert.ok(old);
    assert.is.not(row.iv, old.iv);
    assert.is.not(row.ciphertext, old.ciphertext);
    const { ciphertext, iv, tag, ...rest } = row;
    const { ciphertext: c2, iv: i2, tag: t2, ...oldRest } = old;
    assert.equal(rest, oldRest, "metadata unchanged");
  }
  const withOld = await startVaultHost({ home, vaultKey: KEY });
  try {
    assert.is((await withOld.json<ApiBody<"getVault">>("/api/vault")).body.error?.code, "VAULT_WRONG_KEY");
  } finally {
    await withOld.stop();
  }
  assert.equal(await revealAll(home, NEW_KEY), VALUES);
});

sqliteFileTest(t, "reads the re-encrypted rows in muster.db")("reads the new passphrase from stdin when NEW_VAULT_KEY is unset", async ({ home }) => {
  const res = await muster(["vault", "rotate"], { MUSTER_HOME: home, VAULT_KEY: NEW_KEY }, `${KEY}\n`);
  assert.is(res.code, 0, res.stderr);
  noLeak(res);
  assert.equal(await revealAll(home, KEY), VALUES);
});

sqliteFileTest(t, "reads the re-encrypted rows in muster.db")("a server still running on the home locks its vault after a rotation instead of mixing keys", async ({ home }) => {
  const h = await startVaultHost({ home, vaultKey: KEY });
  try {
    assert.is((await h.json<ApiBody<"getVault">>("/api/vault")).status, 200);
    const res = await muster(["vault", "rotate"], { MUSTER_HOME: home, VAULT_KEY: KEY, NEW_VAULT_KEY: NEW_KEY });
    assert.is(res.code, 0, res.stderr);
    const list = await h.json<ApiBody<"getVault">>("/api/vault");
    assert.is(list.status, 503);
    assert.is(list.body.error?.code, "VAULT_WRONG_KEY");
    assert.match(list.body.error?.message ?? "", /re-keyed/);
    const write = await post(h, "/api/vault", { name: "LATE_WRITE", value: "written-after-rotation" });
    assert.is(write.status, 503);
  } finally {
    await h.stop();
  }
  assert.not.ok(rawRows(home).some((r) => r.name === "LATE_WRITE"));
  assert.equal(await revealAll(home, NEW_KEY), VALUES);
});

t.run();
