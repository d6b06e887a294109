// `muster doctor`'s vault key check, contributed to the host's doctor (hostPoints.doctorChecks).
// Optional, so it runs last: whatever it says, the diagnosis before it is complete. Without a
// server it tells a wrong passphrase by the vault's key check value (never by decrypting a
// secret); beside a running server it asks that server's vault, never opening the database.
import type { DoctorCheck, DoctorContext, DoctorFinding } from "@muster/plugin";

const SET_VAULT_KEY = 'set VAULT_KEY to a long passphrase before starting (e.g. export VAULT_KEY="$(openssl rand -base64 32)") and keep it: secrets cannot be read without it';

export const vaultKeyCheck: DoctorCheck = {
  id: "vault",
  name: "vault key",
  needs: ["database"],
  optional: true,
  run: checkVaultKey,
};

async function checkVaultKey(context: DoctorContext): Promise<DoctorFinding> {
  if (context.runningServer) return vaultOfRunningServer(context.runningServer, context.serverHeaders);
  const vaultKey = context.credential("vaultKey");
  const gatewayToken = context.credential("gatewayToken");
  const passphrase = vaultKey ?? gatewayToken;
  if (!passphrase) return { status: "warn", detail: "VAULT_KEY is not set (optional): the vault stays locked, everything else works", fix: SET_VAULT_KEY };
  const source = vaultKey ? "VAULT_KEY" : "GATEWAY_TOKEN";
  const via = vaultKey ? "VAULT_KEY is set" : "VAULT_KEY is not set; the vault uses GATEWAY_TOKEN as its passphrase";
  // Loaded on demand: only this check needs the key derivation and the database driver.
  const [{ checkPassphrase }, { VaultMetaEntry }, { VaultSecret }] = await Promise.all([import("../crypto/passphrase-check.ts"), import("../entities/vault-meta.ts"), import("../entities/vault-secret.ts")]);
  const postgres = await context.openPostgres([VaultSecret, VaultMetaEntry]);
  let verdict: Awaited<ReturnType<typeof checkPassphrase>>;
  try {
    verdict = await checkPassphrase(context.databasePath, passphrase, postgres);
  } finally {
    await postgres?.close();
  }
  if (verdict === "match") return { status: "ok", detail: `${via} and matches the vault's key check` };
  if (verdict === "uninitialised") return { status: "ok", detail: `${via}; the vault has no key yet (the next start stores its key check)` };
  if (verdict === "damaged") return { status: "fail", detail: "the vault's key metadata (table vault_meta) is damaged", fix: "restore a backup (muster restore); stored secrets cannot be checked" };
  return {
    status: "fail",
    detail: `${source} is wrong: it is not the passphrase the vault's secrets are stored under (key check failed)`,
    fix: `set ${source === "GATEWAY_TOKEN" ? "VAULT_KEY" : source} to the passphrase the vault was created with (or rotate: muster vault rotate)`,
  };
}

/** A running server holds the database: ask its vault (the vault routes answer 503 with the lock's code). */
async function vaultOfRunningServer(url: string, headers: Record<string, string>): Promise<DoctorFinding> {
  const res = await fetch(`${url}/api/vault`, { headers, signal: AbortSignal.timeout(5_000) });
  if (res.status === 200 || res.status === 404) return { status: "ok", detail: res.status === 200 ? "the running server's vault is unlocked" : "the running server has no vault plugin" };
  const code = ((await res.json().catch(() => null)) as { error?: { code?: string } } | null)?.error?.code;
  if (code === "VAULT_LOCKED") return { status: "warn", detail: "the running server's vault is locked: it was started without VAULT_KEY (optional)", fix: `${SET_VAULT_KEY}; then restart the server` };
  if (code === "VAULT_WRONG_KEY") return { status: "fail", detail: "the running server's VAULT_KEY is wrong: the vault's key check failed", fix: "restart the server with VAULT_KEY set to the passphrase the vault was created with" };
  return { status: "fail", detail: `the running server answered GET /api/vault with HTTP ${res.status}${code ? ` ${code}` : ""}` };
}
