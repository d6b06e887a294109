import { token } from "@muster/plugin";
import type { ChildEnvOptions } from "./services/child-environment.ts";
import type { VaultKeyring, VaultStatus } from "./services/keyring.ts";
import type { SecretStore } from "./services/secret-store.ts";

export type { ChildEnvOptions, VaultStatus };
/** What `redact` answers when redaction itself fails; callers that add their own fail-closed guard answer the same. */
export { REDACTION_FAILED } from "./services/redact.ts";
/** The value and, for a JSON credential, each string inside it: what redaction hides (for a plugin holding a credential the vault may not know yet). */
export { credentialParts } from "./services/redact.ts";

/** What other plugins use: read a secret for an integration, scrub secret values from text. */
export interface VaultSecretReader {
  /** The plaintext of a secret, or null when no secret has that name. Never log or return it. */
  get(name: string): string | null;
  /** Whether a secret with that name is stored: nothing is decrypted and `lastAccessedAt` stays (for a status view). Throws like `get` while the vault is locked. */
  has(name: string): boolean;
  /**
   * Resolves once `get`, `has` and `redact` answer with every change committed before the call,
   * another instance's too (PostgreSQL: the view is reloaded now, not at the next notification
   * or tick; SQLite: at once). For an asynchronous caller about to read a secret that the
   * client's previous request, answered by another instance of a team, may have saved.
   */
  current(): Promise<void>;
  /** `text` with every stored and injected secret value replaced; fails closed. */
  redact(text: string): string;
  status(): VaultStatus;
}

/** The environment for child processes Muster starts; injected secrets never enter the server's own env. */
export interface ChildProcessEnvironment {
  /** Sets `envVar` to a secret's value for future child processes; 403 for protected names. */
  inject(envVar: string, secret: string, value: string): void;
  /** A secret's new value reaches the variables it was injected under. */
  refresh(secret: string, value: string): void;
  /** Removes every variable a deleted secret was injected under. */
  forget(secret: string): void;
  /**
   * Team mode: every live instance's injections (this one's included), the newest per
   * variable, with values from this instance's view of the secrets; replaces what was injected.
   */
  share(injections: { envVar: string; secret: string; value: string }[]): void;
  /** `base` without credential variables, plus the injected secrets (unless `injected: false`). */
  childEnv(base?: NodeJS.ProcessEnv, options?: ChildEnvOptions): Record<string, string>;
  variables(): { envVar: string; secret: string }[];
  /** Injected values, for redaction. */
  values(): { name: string; value: string }[];
}

/** Read a secret by name and redact secret values from text. Depend on `vault` to use it. */
export const VAULT_SECRETS = token<VaultSecretReader>("vault.secrets");
/** The environment for child processes Muster starts: `childEnv(base?)`. */
export const VAULT_ENVIRONMENT = token<ChildProcessEnvironment>("vault.environment");
/** Internal to the vault plugin. */
export const VAULT_KEYRING = token<VaultKeyring>("vault.keyring");
/** Internal to the vault plugin. */
export const VAULT_STORE = token<SecretStore>("vault.store");
