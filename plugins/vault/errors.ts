import { defineErrors } from "@muster/plugin";

/** The vault's error catalogue. Messages name secrets and variables, never values. */
export const vaultErrors = defineErrors("vault", {
  VAULT_LOCKED: {
    status: 503,
    message: "The vault is locked: no passphrase is configured. {remedy}",
  },
  VAULT_WRONG_KEY: {
    status: 503,
    message: "The vault is locked: {reason}",
  },
  VAULT_UNAVAILABLE: {
    status: 503,
    message: "The vault could not be opened at start-up (the server log has the cause); restart Muster once it is fixed",
  },
  VAULT_SECRET_NOT_FOUND: { status: 404, message: "No secret named {name}" },
  VAULT_SECRET_CORRUPTED: {
    status: 500,
    message: "Secret {name} cannot be decrypted: {reason}",
  },
  VAULT_ENV_VAR_PROTECTED: {
    status: 403,
    message: "{envVar} is a protected environment variable and cannot be set from the vault (see docs/vault.md)",
  },
  VAULT_AGENT_FORBIDDEN: {
    status: 403,
    message: "Agents cannot reveal plaintext secrets (the request carries X-Agent-Id); use inject to give a tool a secret",
  },
});

/**
 * Refusals of `muster vault rotate` (never sent over HTTP, so status 500 by convention);
 * it also throws VAULT_LOCKED, VAULT_WRONG_KEY and VAULT_SECRET_CORRUPTED from
 * {@link vaultErrors}. Nothing was changed when one is thrown.
 */
export const vaultCommandErrors = defineErrors("vault", {
  VAULT_NO_DATABASE: { status: 500, message: "There is no database at {path}; check MUSTER_HOME" },
  VAULT_NEW_KEY_MISSING: { status: 500, message: "The new passphrase is empty" },
  VAULT_NEW_KEY_MISMATCH: { status: 500, message: "The two passphrases differ; nothing was changed" },
  VAULT_NOT_INITIALISED: { status: 500, message: "{reason}: start Muster with VAULT_KEY set to the passphrase you want" },
  VAULT_ROTATION_CONFLICT: { status: 500, message: "The vault was re-keyed by someone else meanwhile; nothing was changed" },
  VAULT_ROTATION_CANCELLED: { status: 500, message: "Cancelled; nothing was changed" },
});
