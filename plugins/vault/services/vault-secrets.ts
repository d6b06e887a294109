import type { VaultKeyring, VaultStatus } from "./keyring.ts";
import { REDACTION_FAILED, redactValues } from "./redact.ts";
import type { SecretStore } from "./secret-store.ts";
import type { ChildProcessEnvironment, VaultSecretReader } from "../tokens.ts";

/**
 * What other plugins use (token `vault.secrets`): read a secret by name for an
 * integration, and scrub stored secret values out of outgoing text.
 */
export class VaultSecrets implements VaultSecretReader {
  private readonly deps: { store: SecretStore; environment: ChildProcessEnvironment; keyring: VaultKeyring };
  constructor(deps: { store: SecretStore; environment: ChildProcessEnvironment; keyring: VaultKeyring }) {
    this.deps = deps;
  }

  /**
   * The plaintext of a secret, or null when no secret has that name. Sets its
   * `lastAccessedAt`. Throws `VAULT_LOCKED`/`VAULT_WRONG_KEY` (503) while the vault is
   * locked and `VAULT_SECRET_CORRUPTED` when the stored value does not authenticate.
   * Never log or return the value.
   */
  get(name: string): string | null {
    return this.deps.store.readNow(name);
  }

  current(): Promise<void> {
    return this.deps.store.current();
  }

  has(name: string): boolean {
    return this.deps.store.has(name);
  }

  /**
   * Replaces every stored (and injected) secret value found in `text` with
   * `[redacted:<NAME>]`. Values shorter than 4 characters are left alone. While the vault
   * is locked no value is known and the text is returned unchanged. Fails closed: if
   * redaction itself fails, the answer is `[redaction failed: output withheld]`, and the
   * error (which may quote the text or a value) is dropped unseen.
   */
  redact(text: string): string {
    try {
      return redactValues(text, [...this.deps.store.knownValues(), ...this.deps.environment.values()]);
    } catch {
      return REDACTION_FAILED;
    }
  }

  /** Locked, wrong key or unlocked, and where the passphrase came from. */
  status(): VaultStatus {
    return this.deps.keyring.status();
  }
}
