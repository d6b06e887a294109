// Secret records: encrypted on write, decrypted on explicit reads only. What the rest of the
// plugin calls is asynchronous and names no driver (issue 25 puts the same store on
// PostgreSQL); the metadata list is the store kit's. Raw SQL stays where a step needs it:
// every write and every plaintext read is a condition and its statements as one synchronous
// SQLite transaction on the shared connection (no await inside), with the key id check
// inside it, so two requests for the same name cannot interleave and a rotation by the CLI
// cannot commit between checking the key id and writing (or reading) under that key. An
// awaited ORM transaction would give that up on this shared connection.
//
// Two members stay synchronous, for the synchronous interfaces other plugins call:
// `readNow` (VaultSecretReader.get, read inside publishing's and terminal's synchronous
// credential lookups) and `knownValues` (the host's redaction, called inside other plugins'
// synchronous writes). Making those interfaces asynchronous changes their callers, not this
// store (issue 25).
import { randomUUID } from "node:crypto";
import { defineStore, type Database, type EntityStore, type EventBus, type Logger } from "@muster/plugin";
import type { ActivityLog } from "../../activities/tokens.ts";
import type { ChildProcessEnvironment } from "../tokens.ts";
import { open, seal, SealBrokenError, type Sealed } from "../crypto/cipher.ts";
import { vaultErrors } from "../errors.ts";
import { VaultSecret, type VaultSecretRow } from "../entities/vault-secret.ts";
import type { VaultKeyring } from "./keyring.ts";
import { isProtectedVariable } from "./protected-env.ts";

/** A secret as the API shows it: metadata only, never the value. */
export type SecretMetadata = Omit<VaultSecretRow, keyof Sealed>;

export interface SaveSecretInput {
  name: string;
  value: string;
  /** Omitted: unchanged on update, null on create. */
  description?: string | null;
  /** Omitted: unchanged on update, `api_key` on create. */
  category?: string;
  /** Used on create only; the creator of an existing secret does not change. */
  createdBy: string;
}

/** Every column, and the metadata ones (all but the seal), derived once from the entity. */
const FIELDS = Object.keys(VaultSecret.meta.properties) as (keyof VaultSecretRow)[];
const SEAL: readonly string[] = ["ciphertext", "iv", "tag"] satisfies (keyof Sealed)[];
const METADATA_FIELDS = FIELDS.filter((f): f is keyof SecretMetadata => !SEAL.includes(f));
const METADATA = METADATA_FIELDS.join(", ");
/** Reads through the kit return metadata only: the seal is read by the steps below, never listed. */
const metadata = defineStore(VaultSecret, { fields: METADATA_FIELDS, orderBy: { name: "asc" } });
const INSERT = `INSERT INTO vault_secrets (${FIELDS.join(", ")}) VALUES (${FIELDS.map((f) => `@${f}`).join(", ")})`;

export interface SecretStoreDeps {
  db: () => Database;
  keyring: VaultKeyring;
  environment: ChildProcessEnvironment;
  activities: ActivityLog;
  events: EventBus;
  logger: Logger;
}

export class SecretStore {
  /** Decrypted values for redaction, rebuilt lazily after any write. */
  private plainCache: { name: string; value: string }[] | null = null;

  private readonly deps: SecretStoreDeps;
  private readonly rows: EntityStore<typeof VaultSecret>;

  constructor(deps: SecretStoreDeps) {
    this.deps = deps;
    this.rows = metadata.on(deps.db);
  }

  private get sql() {
    return this.deps.db().sql;
  }

  /** All secrets' metadata, by name. */
  async list(): Promise<SecretMetadata[]> {
    this.deps.keyring.requireKey();
    return (await this.rows.list()) as SecretMetadata[];
  }

  /** Creates the secret, or re-encrypts it under a fresh IV when the name exists. */
  async save(input: SaveSecretInput, actor: string): Promise<{ secret: SecretMetadata; created: boolean }> {
    const sql = this.sql;
    // IMMEDIATE, with the key check inside: a rotation by the CLI cannot commit between
    // checking the key id and writing with this key.
    const result = sql.transaction(() => {
      const key = this.deps.keyring.requireKey();
      const now = new Date().toISOString();
      const existing = sql.prepare("SELECT id FROM vault_secrets WHERE name = ?").get(input.name) as { id: string } | undefined;
      const id = existing?.id ?? randomUUID();
      const sealed = seal(key, { id, name: input.name }, input.value);
      if (existing) {
        sql
          .prepare(
            `UPDATE vault_secrets SET ciphertext = @ciphertext, iv = @iv, tag = @tag, updatedAt = @now,
               description = CASE WHEN @keepDescription = 1 THEN description ELSE @description END,
               category = COALESCE(@category, category)
             WHERE id = @id`,
          )
          .run({ ...sealed, id, now, keepDescription: input.description === undefined ? 1 : 0, description: input.description ?? null, category: input.category ?? null });
      } else {
        const row: VaultSecretRow = {
          ...sealed,
          id,
          name: input.name,
          description: input.description ?? null,
          category: input.category ?? "api_key",
          createdBy: input.createdBy,
          createdAt: now,
          updatedAt: now,
          lastAccessedAt: null,
        };
        sql.prepare(INSERT).run(row);
      }
      this.deps.activities.log({ agentId: actor, action: existing ? "vault_secret_updated" : "vault_secret_created", target: input.name });
      return { secret: sql.prepare(`SELECT ${METADATA} FROM vault_secrets WHERE id = ?`).get(id) as SecretMetadata, created: !existing };
    }).immediate();
    this.plainCache = null;
    this.deps.environment.refresh(input.name, input.value);
    const { id, name, category, createdBy } = result.secret;
    this.deps.events.publish(`vault.secret.${result.created ? "created" : "updated"}`, { id, name, category, createdBy }, { public: true });
    return result;
  }

  /** Deletes by name (404 when unknown) and drops variables injected from it. */
  async remove(name: string, actor: string): Promise<SecretMetadata> {
    const sql = this.sql;
    const removed = sql.transaction(() => {
      this.deps.keyring.requireKey();
      const row = sql.prepare(`SELECT ${METADATA} FROM vault_secrets WHERE name = ?`).get(name) as SecretMetadata | undefined;
      if (!row) return undefined;
      sql.prepare("DELETE FROM vault_secrets WHERE id = ?").run(row.id);
      this.deps.activities.log({ agentId: actor, action: "vault_secret_deleted", target: name });
      return row;
    }).immediate();
    if (!removed) throw vaultErrors.VAULT_SECRET_NOT_FOUND({ name });
    this.plainCache = null;
    this.deps.environment.forget(name);
    this.deps.events.publish("vault.secret.deleted", { id: removed.id, name }, { public: true });
    return removed;
  }

  /**
   * Decrypts one secret and sets its `lastAccessedAt`; with `audit`, the activity entry is
   * written in the same transaction, so an access that cannot be audited does not happen.
   * Returns null for an unknown name. A value that does not authenticate is reported as
   * corrupted for this secret only.
   */
  async read(name: string, audit?: { actor: string; action: string; details?: string }): Promise<string | null> {
    return this.readNow(name, audit);
  }

  /** Whether `name` is stored (metadata only; the vault must be unlocked, as for every other read). */
  has(name: string): boolean {
    this.deps.keyring.requireKey();
    return this.sql.prepare("SELECT 1 FROM vault_secrets WHERE name = ?").get(name) !== undefined;
  }

  /** {@link read} as one synchronous step, for the synchronous VaultSecretReader.get (see the top of this file). */
  readNow(name: string, audit?: { actor: string; action: string; details?: string }): string | null {
    const sql = this.sql;
    // One read snapshot for the key id check and the row, so a concurrent rotation is seen
    // as "re-keyed" (503), never as a corrupted secret.
    const { key, row } = sql.transaction(() => ({
      key: this.deps.keyring.requireKey(),
      row: sql.prepare(`SELECT ${FIELDS.join(", ")} FROM vault_secrets WHERE name = ?`).get(name) as VaultSecretRow | undefined,
    }))();
    if (!row) return null;
    const value = this.decrypt(key, row);
    sql.transaction(() => {
      sql.prepare("UPDATE vault_secrets SET lastAccessedAt = ? WHERE id = ?").run(new Date().toISOString(), row.id);
      if (audit) this.deps.activities.log({ agentId: audit.actor, action: audit.action, target: name, details: audit.details ?? null });
    })();
    return value;
  }

  /** Reveals a plaintext value to a human (404 when unknown). */
  async reveal(name: string, actor: string): Promise<string> {
    const value = await this.read(name, { actor, action: "vault_secret_revealed" });
    if (value === null) throw vaultErrors.VAULT_SECRET_NOT_FOUND({ name });
    this.deps.events.publish("vault.secret.revealed", { name, by: actor }, { public: false });
    return value;
  }

  /** Puts a secret into the child-process environment under `envVar`. */
  async inject(name: string, envVar: string, actor: string): Promise<void> {
    if (isProtectedVariable(envVar)) throw vaultErrors.VAULT_ENV_VAR_PROTECTED({ envVar });
    const value = await this.read(name, { actor, action: "vault_secret_injected", details: `envVar=${envVar}` });
    if (value === null) throw vaultErrors.VAULT_SECRET_NOT_FOUND({ name });
    this.deps.environment.inject(envVar, name, value);
    this.deps.events.publish("vault.secret.injected", { name, envVar }, { public: false });
  }

  /** Every readable secret value, for redaction; empty while the vault is locked. */
  knownValues(): { name: string; value: string }[] {
    // Called for every free-text field a request writes, so the common cases read nothing
    // they do not need: a locked vault knows no value (requireKey could only throw), and
    // with the values cached only the key id is checked, one statement, which needs no
    // transaction to be consistent with itself.
    if (!this.deps.keyring.holdsKey()) return [];
    if (this.plainCache) {
      try {
        this.deps.keyring.requireKey();
      } catch {
        return [];
      }
      return this.plainCache;
    }
    const sql = this.sql;
    let key: Buffer;
    let rows: Pick<VaultSecretRow, "id" | "name" | keyof Sealed>[];
    try {
      ({ key, rows } = sql.transaction(() => ({
        key: this.deps.keyring.requireKey(),
        rows: sql.prepare(`SELECT id, name, ciphertext, iv, tag FROM vault_secrets`).all() as Pick<VaultSecretRow, "id" | "name" | keyof Sealed>[],
      }))());
    } catch {
      return [];
    }
    const values: { name: string; value: string }[] = [];
    for (const row of rows) {
      try {
        values.push({ name: row.name, value: open(key, row, row) });
      } catch {
        // A corrupted secret cannot leak through redaction either; it is reported when read.
      }
    }
    this.plainCache = values;
    return values;
  }

  private decrypt(key: Buffer, row: VaultSecretRow): string {
    try {
      return open(key, row, row);
    } catch (error) {
      if (!(error instanceof SealBrokenError)) throw error;
      this.deps.logger.error({ code: "VAULT_SECRET_CORRUPTED", secret: row.name, id: row.id }, "a stored secret failed authentication");
      throw vaultErrors.VAULT_SECRET_CORRUPTED({
        name: row.name,
        reason: "its stored ciphertext, IV or tag was altered or belongs to another secret. Other secrets are unaffected; store it again to replace it",
      });
    }
  }
}
