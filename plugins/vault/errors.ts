import { defineErrors } from "@muster/plugin";

/** The vault's error catalogue. Messages name secrets and variables, never values. */
export const vaultErrors = defineErrors({
  VAULT_LOCKED: {
    status: 503,
    message:
      "The vault is locked: no passphrase is configured. Set VAULT_KEY (or GATEWAY_TOKEN) in the environment and restart Muster; see docs/vault.md",
  },
  VAULT_WRONG_KEY: {
    status: 503,
    message: (p) => String(p.reason ?? "The vault is locked: the configured passphrase does not match the one the secrets are stored under"),
  },
  VAULT_UNAVAILABLE: {
    status: 503,
    message: "The vault could not be opened at start-up (the server log has the cause); restart Muster once it is fixed",
  },
  VAULT_SECRET_NOT_FOUND: { status: 404, message: (p) => `No secret named ${p.name}` },
  VAULT_SECRET_CORRUPTED: {
    status: 500,
    message: (p) =>
      `Secret ${p.name} cannot be decrypted: its stored ciphertext, IV or tag was altered or belongs to another secret. Other secrets are unaffected; store it again to replace it`,
  },
  VAULT_ENV_VAR_PROTECTED: {
    status: 403,
    message: (p) => `${p.envVar} is a protected environment variable and cannot be set from the vault (see docs/vault.md)`,
  },
  VAULT_AGENT_FORBIDDEN: {
    status: 403,
    message: "Agents cannot reveal plaintext secrets (the request carries X-Agent-Id); use inject to give a tool a secret",
  },
});
