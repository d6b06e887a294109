// Holds the vault key: derived once at start-up, checked against the stored key check
// value, and re-validated against the stored key id on every use.
import { atomically, defineStore, type AtomicStatementStep, type AtomicTx, type Database, type HostInfo, type Logger, type MusterError } from "@muster/plugin";
import { deriveKey, matchesKeyCheck } from "../crypto/kdf.ts";
import { currentKeyId, freshKey, keyIdStatement, parseMeta, writeMeta } from "../crypto/meta.ts";
import { vaultErrors } from "../errors.ts";
import { VaultMetaEntry } from "../entities/vault-meta.ts";
import { VaultSecret } from "../entities/vault-secret.ts";

const metaRows = defineStore(VaultMetaEntry, { key: "key" });
const secretRows = defineStore(VaultSecret);

/** Which configuration variable the passphrase came from (never the passphrase itself). */
export type PassphraseSource = "VAULT_KEY" | "GATEWAY_TOKEN";

export interface VaultStatus {
  state: "unlocked" | "locked" | "wrong-key";
  source: PassphraseSource | null;
  /** How many times scrypt ran in this process: once per start (a diagnostic). */
  keyDerivations: number;
}

/** The passphrase the host is configured with: `VAULT_KEY`, else `GATEWAY_TOKEN`. */
export function configuredPassphrase(host: HostInfo): { value: string; source: PassphraseSource } | null {
  const vaultKey = host.credential("vaultKey");
  if (vaultKey) return { value: vaultKey, source: "VAULT_KEY" };
  const gatewayToken = host.credential("gatewayToken");
  if (gatewayToken) return { value: gatewayToken, source: "GATEWAY_TOKEN" };
  return null;
}

export interface VaultKeyringDeps {
  db: () => Database;
  logger: Logger;
  passphrase: () => { value: string; source: PassphraseSource } | null;
}

/** The first-start hint (docs/vault.md, "The passphrase"). */
const HOW_TO_SET = 'To use the vault, stop Muster, set VAULT_KEY to a long passphrase and keep it safe (e.g. export VAULT_KEY="$(openssl rand -base64 32)"), and start again';

export class VaultKeyring {
  private key: Buffer | null = null;
  private keyId: string | null = null;
  private lockError: MusterError = vaultErrors.VAULT_LOCKED({ remedy: "Set VAULT_KEY (or GATEWAY_TOKEN) in the environment and restart Muster; see docs/vault.md" });
  private derivations = 0;
  private source: PassphraseSource | null = null;

  private readonly deps: VaultKeyringDeps;

  constructor(deps: VaultKeyringDeps) {
    this.deps = deps;
  }

  /**
   * Derives the key once. A vault never used before gets a random salt and a key check
   * value; a wrong passphrase leaves the vault locked and every stored row untouched.
   */
  async unlock(): Promise<void> {
    try {
      await this.tryUnlock();
    } catch (error) {
      // A database or scrypt failure here must not stop the rest of Muster from starting.
      this.unavailable(error);
    }
  }

  /** Locks the vault as unavailable (503 VAULT_UNAVAILABLE until a restart), logging the cause. */
  unavailable(error: unknown): void {
    this.key?.fill(0);
    this.key = null;
    this.lockError = vaultErrors.VAULT_UNAVAILABLE({}, { cause: error });
    this.deps.logger.error({ err: error, code: "VAULT_UNAVAILABLE" }, "the vault could not be opened");
  }

  private async tryUnlock(): Promise<void> {
    const passphrase = this.deps.passphrase();
    if (!passphrase) {
      this.deps.logger.warn({ variable: "VAULT_KEY" }, `vault locked: VAULT_KEY is not set (optional; everything but the vault works). ${HOW_TO_SET}`);
      return;
    }
    this.source = passphrase.source;
    const meta = parseMeta(await metaRows.on(this.deps.db).list());
    if (meta === "invalid") {
      return this.refuse("its key metadata (table vault_meta) is damaged, so the passphrase cannot be checked. Stored secrets were not touched");
    }
    if (meta === null) {
      const count = await secretRows.on(this.deps.db).count();
      if (count > 0) {
        return this.refuse("secrets exist but their key metadata (table vault_meta) is missing. Stored secrets were not touched");
      }
      const { key, meta: fresh } = await freshKey(passphrase.value);
      this.derivations++;
      // An upsert per row (ON CONFLICT), shared with the rotation; the four rows in one step.
      await atomically(this.deps.db(), (tx) => writeMeta(tx, fresh));
      this.open(key, fresh.keyId);
      this.deps.logger.info({ source: passphrase.source }, "vault initialised with a new key");
      // The fallback ties the secrets to the gateway's token: say so while changing it is still cheap.
      if (passphrase.source === "GATEWAY_TOKEN") this.deps.logger.warn({ variable: "VAULT_KEY" }, "the vault's passphrase is GATEWAY_TOKEN because VAULT_KEY is not set: changing the gateway token will lock the vault. Move it to a passphrase of its own with muster vault rotate (docs/vault.md) and start with VAULT_KEY set to it");
      return;
    }
    const key = await deriveKey(passphrase.value, meta.salt, meta.kdf);
    this.derivations++;
    if (!matchesKeyCheck(key, meta.keyCheck)) {
      return this.refuse(
        `the passphrase in ${passphrase.source} is not the one the secrets are stored under (key check failed). Restart with the right passphrase in VAULT_KEY; stored secrets were not touched`,
      );
    }
    this.open(key, meta.keyId);
    this.deps.logger.info({ source: passphrase.source }, "vault unlocked");
  }

  /**
   * The key for one operation, or the lock error (503), as statements of that operation's
   * atomic step: the stored key id is read in the same transaction as the secret's write or
   * read, so a rotation by `muster vault rotate` cannot commit in between. If it re-keyed the
   * database under a running server, the server locks its vault instead of mixing
   * ciphertexts of two keys.
   */
  *keyIn(tx: AtomicTx): AtomicStatementStep<Buffer> {
    if (!this.key) throw this.lockError;
    const stored = yield* tx.get<{ value: string }>(keyIdStatement(this.deps.db()));
    return this.matching(stored?.value);
  }

  /** {@link keyIn} as a step of its own, for a read that is not itself a step (the metadata list). */
  async checkedKey(): Promise<Buffer> {
    if (this.deps.db().engine !== "postgresql") return this.requireKey();
    return atomically(this.deps.db(), (tx) => this.keyIn(tx));
  }

  /**
   * The key, synchronously. On SQLite the stored key id is compared on the shared connection
   * (for the synchronous `VAULT_SECRETS.get`, `has` and the redaction's value list). On
   * PostgreSQL nothing can be read synchronously: those members answer from the secret
   * store's view, and a re-keying is noticed by the next atomic step (or the view's refresh).
   */
  requireKey(): Buffer {
    if (!this.key) throw this.lockError;
    return this.deps.db().engine === "postgresql" ? this.key : this.matching(currentKeyId(this.deps.db().sql));
  }

  /** The key, if `storedKeyId` is still the one it was unlocked under; otherwise the vault locks (503). */
  private matching(storedKeyId: string | undefined): Buffer {
    if (!this.key) throw this.lockError;
    if (storedKeyId !== this.keyId) {
      this.refuse("it was re-keyed (muster vault rotate) after this server started; restart Muster with VAULT_KEY set to the new passphrase");
      throw this.lockError;
    }
    return this.key;
  }

  /** Whether a key is held (unlocked); `requireKey` still checks it against the stored key id. */
  holdsKey(): boolean {
    return this.key !== null;
  }

  status(): VaultStatus {
    const state = this.key ? "unlocked" : this.lockError.code === "VAULT_WRONG_KEY" ? "wrong-key" : "locked";
    return { state, source: this.source, keyDerivations: this.derivations };
  }

  /** Forgets the key (at shutdown). */
  close(): void {
    this.key?.fill(0);
    this.key = null;
  }

  private open(key: Buffer, keyId: string) {
    this.key = key;
    this.keyId = keyId;
  }

  private refuse(reason: string) {
    this.key?.fill(0);
    this.key = null;
    this.lockError = vaultErrors.VAULT_WRONG_KEY({ reason });
    this.deps.logger.error({ code: "VAULT_WRONG_KEY", source: this.source }, this.lockError.message);
  }
}
