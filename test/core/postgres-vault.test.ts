// The vault on a real, throwaway PostgreSQL (issue 25): its writes, reads and rotation are
// driver-neutral atomic steps (the key id read in the same step), and the synchronous members
// other plugins call (`VAULT_SECRETS.get`/`has`, the host's redaction) answer from the view the
// steps keep current (plugins/vault/services/secret-view.ts). Over HTTP: store, list, reveal,
// delete; redaction of a stored value in another plugin's free text; the terminal reading a
// secret for a command; 20 concurrent saves of one name; `muster vault rotate` with
// DATABASE_URL, whole or not at all; `muster doctor`'s vault key check on PostgreSQL. The SQLite suites stay under test/plugins/vault.
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiBody } from "@muster/plugin/testing";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { terminalPlugin } from "../../plugins/terminal/index.ts";
import { vaultPlugin } from "../../plugins/vault/index.ts";
import { createProbe, flipHex, KEY } from "../plugins/vault/helpers.ts";
import { runMuster } from "../cli/run-muster.ts";
import { envFor, report } from "./doctor-run.ts";
import { withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { postgresSuite, psql } from "../helpers/postgres-cluster.ts";
import { waitUntil } from "../helpers/wait.ts";

const { t, test, database } = postgresSuite("the vault on PostgreSQL");

const NEW_KEY = "a brand new passphrase for the vault";
const VALUES: Record<string, string> = {
  FIRST_SECRET: "first-secret-value-111",
  SECOND_SECRET: "second \"quoted\" value\nwith a newline",
  THIRD_SECRET: "third-värde-🔑-333",
};

/** A host on `url` with the vault under `vaultKey`, the terminal (unsandboxed) and a probe holding `vault.secrets`. */
async function onVault<T>(url: string, vaultKey: string, fn: (h: TestHost, probe: ReturnType<typeof createProbe>) => Promise<T>): Promise<T> {
  const probe = createProbe();
  return withTestHost(
    { plugins: [activitiesPlugin, vaultPlugin, terminalPlugin, probe.plugin], env: { DATABASE_URL: url }, config: { vaultKey, pluginConfig: { terminal: { sandbox: "none" } } } },
    (h) => fn(h, probe),
  );
}

const save = (h: TestHost, name: string, value: string) => h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name, value } });
const reveal = (h: TestHost, name: string) => h.json<ApiBody<"postVaultReveal">>("/api/vault/reveal", { method: "POST", body: { name }, session: true });
const codeOf = (body: unknown) => (body as { error?: { code?: string } }).error?.code;

test("secrets are stored, listed, revealed, used by the terminal, redacted from free text and deleted over HTTP", async () => {
  const url = await database();
  const dir = mkdtempSync(join(tmpdir(), "muster-pg-vault-"));
  try {
    await onVault(url, KEY, async (h, probe) => {
      const created = await save(h, "DEPLOY", "deploy-value-first-4b7e");
      assert.is(created.status, 201, JSON.stringify(created.body));
      const updated = await h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name: "DEPLOY", value: "deploy-value-second-9c1d", description: "the deploy key" } });
      assert.is(updated.status, 200, JSON.stringify(updated.body));
      assert.is(updated.body.secret.id, created.body.secret.id);
      assert.is(updated.body.secret.description, "the deploy key");

      const listed = await h.json<ApiBody<"getVault">>("/api/vault");
      assert.is(listed.status, 200, JSON.stringify(listed.body));
      assert.equal(listed.body.secrets.map((s) => s.name), ["DEPLOY"]);
      assert.not.ok(JSON.stringify(listed.body).includes("deploy-value"), "the list carries no value");

      const shown = await reveal(h, "DEPLOY");
      assert.is(shown.status, 200, JSON.stringify(shown.body));
      assert.is(shown.body.value, "deploy-value-second-9c1d");
      const stored = psql(url, `SELECT "lastAccessedAt" IS NOT NULL, ciphertext LIKE '%deploy%' FROM vault_secrets WHERE name = 'DEPLOY'`);
      assert.is(stored, "t|f", "the reveal set lastAccessedAt; the value is stored encrypted");

      // The synchronous reader other plugins use answers on PostgreSQL too.
      assert.is(probe.secrets!.get("DEPLOY"), "deploy-value-second-9c1d");
      assert.is(probe.secrets!.has("DEPLOY"), true);
      assert.is(probe.secrets!.get("NOPE"), null);

      // Another plugin's free text: the stored value is redacted before it is stored.
      const logged = await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "odin", action: "note", details: "token deploy-value-second-9c1d used" } });
      assert.is(logged.status, 201, JSON.stringify(logged.body));
      assert.is(logged.body.details, "token [redacted:DEPLOY] used");
      const listedActivities = await h.json<ApiBody<"getActivities">>("/api/activities");
      assert.not.ok(JSON.stringify(listedActivities.body).includes("deploy-value-second"), "no stored activity holds the value");

      // The terminal reads the secret for one command (VAULT_SECRETS.get) and masks it in the output.
      const run = await h.json<ApiBody<"postTerminal">>("/api/terminal", { method: "POST", body: { command: "printenv DEPLOY_TOKEN", cwd: dir, secrets: { DEPLOY_TOKEN: "DEPLOY" } }, session: true });
      assert.is(run.status, 200, JSON.stringify(run.body));
      assert.is(run.body.output, "[redacted:DEPLOY]\n");

      // Bad input and refusals: the codes of SQLite.
      const invalid = await save(h, "has space", "abcd");
      assert.is(invalid.status, 400);
      assert.is(codeOf(invalid.body), "VALIDATION_FAILED");
      const agent = await h.json("/api/vault/reveal", { method: "POST", body: { name: "DEPLOY" }, session: true, headers: { "X-Agent-Id": "odin" } });
      assert.is(agent.status, 403);
      assert.is(codeOf(agent.body), "VAULT_AGENT_FORBIDDEN");

      // A stored seal that does not authenticate: reported for that secret, as on SQLite.
      assert.is((await save(h, "TAMPERED", "tampered-value-5a5a")).status, 201);
      psql(url, `UPDATE vault_secrets SET tag = '${flipHex(psql(url, "SELECT tag FROM vault_secrets WHERE name = 'TAMPERED'"))}' WHERE name = 'TAMPERED'`);
      const corrupted = await reveal(h, "TAMPERED");
      assert.is(corrupted.status, 500);
      assert.is(codeOf(corrupted.body), "VAULT_SECRET_CORRUPTED");

      const deleted = await h.json("/api/vault?name=DEPLOY", { method: "DELETE", session: true });
      assert.is(deleted.status, 200, JSON.stringify(deleted.body));
      assert.is(probe.secrets!.get("DEPLOY"), null, "a deleted secret is gone from the synchronous reader");
      const gone = await reveal(h, "DEPLOY");
      assert.is(gone.status, 404);
      assert.is(codeOf(gone.body), "VAULT_SECRET_NOT_FOUND");
      const again = await h.json("/api/vault?name=DEPLOY", { method: "DELETE", session: true });
      assert.is(again.status, 404);
      assert.is(codeOf(again.body), "VAULT_SECRET_NOT_FOUND");
      const missing = await h.json<ApiBody<"postTerminal">>("/api/terminal", { method: "POST", body: { command: "true", cwd: dir, secrets: { DEPLOY_TOKEN: "DEPLOY" } }, session: true });
      assert.is(missing.status, 404);
      assert.is(codeOf(missing.body), "TERMINAL_SECRET_NOT_FOUND");
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("without a passphrase the vault is locked on PostgreSQL as on SQLite: 503 VAULT_LOCKED, nothing redacted", async () => {
  const url = await database();
  await withTestHost({ plugins: [activitiesPlugin, vaultPlugin], env: { DATABASE_URL: url }, config: { vaultKey: null, gatewayToken: null } }, async (h) => {
    for (const answer of [await h.json("/api/vault"), await save(h, "LOCKED_OUT", "locked-out-value")]) {
      assert.is(answer.status, 503);
      assert.is(codeOf(answer.body), "VAULT_LOCKED");
    }
    const logged = await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "odin", action: "note", details: "locked-out-value" } });
    assert.is(logged.body.details, "locked-out-value");
  });
});

test("20 concurrent saves of one name: one row, one creation, and the stored value is the one every reader sees", async () => {
  const url = await database();
  await onVault(url, KEY, async (h, probe) => {
    const values = Array.from({ length: 20 }, (_, i) => `racing-value-${String(i).padStart(2, "0")}-e1f0`);
    const answers = await Promise.all(values.map((value) => save(h, "RACED", value)));
    assert.ok(answers.every((a) => a.status === 200 || a.status === 201), JSON.stringify(answers.map((a) => a.body)));
    assert.is(answers.filter((a) => a.status === 201).length, 1, "one creation");
    assert.is(new Set(answers.map((a) => a.body.secret.id)).size, 1, "one secret");
    assert.is(psql(url, "SELECT count(*) FROM vault_secrets WHERE name = 'RACED'"), "1");
    const stored = (await reveal(h, "RACED")).body.value;
    assert.ok(values.includes(stored), stored);
    assert.is(probe.secrets!.get("RACED"), stored, "the view holds the committed value");
    const logged = await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "odin", action: "note", details: `saw ${stored}` } });
    assert.is(logged.body.details, "saw [redacted:RACED]");
  });
});

test("two servers on one database: a secret saved on one is redacted and read on the other once its view reloads", async () => {
  const url = await database();
  await onVault(url, KEY, async (first) => {
    await onVault(url, KEY, async (second, probe) => {
      assert.is((await save(first, "SHARED", "shared-value-across-7d2a")).status, 201);
      await waitUntil(() => probe.secrets!.get("SHARED") !== null, { timeoutMs: 30_000, intervalMs: 100, label: "the other server's view reload" });
      assert.is(probe.secrets!.get("SHARED"), "shared-value-across-7d2a");
      const logged = await second.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "odin", action: "note", details: "shared-value-across-7d2a" } });
      assert.is(logged.body.details, "[redacted:SHARED]");
      assert.is((await second.json("/api/vault?name=SHARED", { method: "DELETE", session: true })).status, 200);
      assert.is(probe.secrets!.get("SHARED"), null, "a deletion leaves this server's view with its commit");
      assert.is((await reveal(first, "SHARED")).status, 404, "the deletion is seen by the first server's steps at once");
    });
  });
});

test("team: a secret saved through one instance is read and masked by the next terminal command on the other, at once (each of 10)", async () => {
  const url = await database();
  const dir = mkdtempSync(join(tmpdir(), "muster-pg-vault-"));
  try {
    await onVault(url, KEY, async (first) => {
      await onVault(url, KEY, async (second) => {
        for (let i = 0; i < 10; i++) {
          assert.is((await save(first, `NEXT_${i}`, `next-value-${i}-5e0f`)).status, 201);
          const run = await second.json<ApiBody<"postTerminal">>("/api/terminal", { method: "POST", body: { command: "printenv TOKEN", cwd: dir, secrets: { TOKEN: `NEXT_${i}` } }, session: true });
          assert.is(run.status, 200, JSON.stringify(run.body));
          assert.is(run.body.output, `[redacted:NEXT_${i}]\n`);
        }
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("team: a variable injected through one instance reaches the other's terminal commands; the newest injection wins; a deletion or the injecting instance's stop ends it everywhere", async () => {
  const url = await database();
  const dir = mkdtempSync(join(tmpdir(), "muster-pg-inject-"));
  const printenv = async (h: TestHost) => {
    const run = await h.json<ApiBody<"postTerminal">>("/api/terminal", { method: "POST", body: { command: "printenv INJ_VAR", cwd: dir }, session: true });
    assert.is(run.status, 200, JSON.stringify(run.body));
    return run.body.output;
  };
  const inject = (h: TestHost, name: string) => h.json("/api/vault/inject", { method: "POST", body: { name, envVar: "INJ_VAR" }, session: true });
  try {
    await onVault(url, KEY, async (first) => {
      await onVault(url, KEY, async (second) => {
        assert.is((await save(first, "INJ_ONE", "inj-one-value-3b7e")).status, 201);
        assert.is((await save(first, "INJ_TWO", "inj-two-value-8c1f")).status, 201);
        assert.is((await inject(second, "INJ_ONE")).status, 200);
        assert.is(await printenv(first), "[redacted:INJ_ONE]\n", "injected through the other instance");
        assert.is(await printenv(second), "[redacted:INJ_ONE]\n");
        // The newest injection under a name wins on both, whichever instance made the older one.
        assert.is((await inject(first, "INJ_TWO")).status, 200);
        assert.is(await printenv(second), "[redacted:INJ_TWO]\n");
        assert.is(await printenv(first), "[redacted:INJ_TWO]\n");
        assert.is((await inject(second, "INJ_ONE")).status, 200);
        assert.is(await printenv(first), "[redacted:INJ_ONE]\n");
        // A secret deleted through one instance is injected nowhere any more.
        assert.is((await second.json("/api/vault?name=INJ_ONE", { method: "DELETE", session: true })).status, 200);
        assert.is(await printenv(first), "");
        assert.is(await printenv(second), "");
        assert.is((await inject(second, "INJ_TWO")).status, 200);
        assert.is(await printenv(first), "[redacted:INJ_TWO]\n");
      });
      // The instance that injected it stopped: its injection ended with it, as on one process.
      assert.is(await printenv(first), "");
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("muster vault rotate with DATABASE_URL: a failure halfway changes nothing, a rotation re-keys every secret, a running server locks", async () => {
  const url = await database();
  const home = mkdtempSync(join(tmpdir(), "muster-pg-rotate-"));
  const rotate = (vaultKey: string, newKey: string) => runMuster(["vault", "rotate"], { MUSTER_HOME: home, DATABASE_URL: url, VAULT_KEY: vaultKey, NEW_VAULT_KEY: newKey });
  const snapshot = () => psql(url, "SELECT name, ciphertext, iv, tag FROM vault_secrets ORDER BY name") + "\n" + psql(url, "SELECT key, value FROM vault_meta ORDER BY key");
  const revealAll = (vaultKey: string) =>
    onVault(url, vaultKey, async (h) => Object.fromEntries(await Promise.all(Object.keys(VALUES).map(async (name) => [name, (await reveal(h, name)).body.value]))));
  try {
    await onVault(url, KEY, async (h) => {
      for (const [name, value] of Object.entries(VALUES)) assert.is((await save(h, name, value)).status, 201);
    });

    // The last secret in the rotation's order does not authenticate: the first two were re-encrypted when it fails.
    const tag = psql(url, "SELECT tag FROM vault_secrets WHERE name = 'THIRD_SECRET'");
    psql(url, `UPDATE vault_secrets SET tag = '${flipHex(tag)}' WHERE name = 'THIRD_SECRET'`);
    const before = snapshot();
    const failed = await rotate(KEY, NEW_KEY);
    assert.is(failed.status, 1, failed.stderr);
    assert.match(failed.stderr, /VAULT_SECRET_CORRUPTED/);
    assert.is(snapshot(), before, "nothing was changed");
    psql(url, `UPDATE vault_secrets SET tag = '${tag}' WHERE name = 'THIRD_SECRET'`);
    assert.equal(await revealAll(KEY), VALUES, "every secret still reads with the old key");

    const wrong = await rotate("not the passphrase", NEW_KEY);
    assert.is(wrong.status, 1);
    assert.match(wrong.stderr, /VAULT_WRONG_KEY/);

    const rotated = await rotate(KEY, NEW_KEY);
    assert.is(rotated.status, 0, rotated.stderr);
    assert.match(rotated.stdout, /Re-encrypted 3 secret/);
    assert.equal(await revealAll(NEW_KEY), VALUES);
    await onVault(url, KEY, async (h) => {
      const locked = await h.json("/api/vault");
      assert.is(locked.status, 503);
      assert.is(codeOf(locked.body), "VAULT_WRONG_KEY");
    });

    // `muster doctor` with DATABASE_URL tells the passphrase by the key check stored in PostgreSQL.
    const vaultCheck = async (vaultKey: string) => (await report(envFor(null, home, { DATABASE_URL: url, GATEWAY_URL: "off", VAULT_KEY: vaultKey }))).checks.find((c) => c.id === "vault")!;
    const matches = await vaultCheck(NEW_KEY);
    assert.is(matches.status, "ok", matches.detail);
    assert.match(matches.detail, "matches the vault's key check");
    const stale = await vaultCheck(KEY);
    assert.is(stale.status, "fail", stale.detail);
    assert.match(stale.detail, "VAULT_KEY is wrong");

    // Re-keyed under a running server: its next write locks its vault instead of sealing with the old key.
    await onVault(url, NEW_KEY, async (h, probe) => {
      const back = await rotate(NEW_KEY, KEY);
      assert.is(back.status, 0, back.stderr);
      // The view's reload reads the new key id too: the synchronous reader locks without any request.
      await waitUntil(() => probe.secrets!.status().state === "wrong-key", { timeoutMs: 30_000, intervalMs: 100, label: "the view's reload noticing the rotation" });
      assert.throws(() => probe.secrets!.get("FIRST_SECRET"), (e: { code?: string }) => e.code === "VAULT_WRONG_KEY");
      const refused = await save(h, "FIRST_SECRET", "written-with-a-stale-key");
      assert.is(refused.status, 503);
      assert.is(codeOf(refused.body), "VAULT_WRONG_KEY");
    });
    assert.equal(await revealAll(KEY), VALUES, "nothing was written with the stale key");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

t.run();
