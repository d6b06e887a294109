// Secret records: encrypted on write, decrypted on explicit reads only. Every write and every
// plaintext read is one atomic step of the store kit (`atomically`, the same SQL on SQLite and
// PostgreSQL) that reads the stored key id in the same transaction (VaultKeyring.keyIn), so a
// rotation by `muster vault rotate` cannot commit between checking the key id and writing (or
// reading) under that key. A save or a deletion first takes the kit's lock on the name
// (`tx.lock`): the "is there one already" check and the insert are one step on PostgreSQL too.
// On SQLite the step runs synchronously inside better-sqlite3's transaction, as before.
//
// Three members stay synchronous, for the synchronous interfaces other plugins call: `readNow`
// and `has` (VaultSecretReader.get/has, read inside publishing's, terminal's and the
// messenger's credential lookups) and `knownValues` (the host's redaction, called inside other
// plugins' synchronous writes). On SQLite they read the shared connection, the key id checked
// in the same read; on PostgreSQL they answer from the in-memory view (secret-view.ts), which
// the steps below keep current on this process.
import { randomUUID } from "node:crypto";
import { atomically, defineStore, type AtomicStatementStep, type AtomicTx, type Database, type DatabaseListener, type EntityStore, type EventBus, type Instances, type Logger } from "@muster/plugin";
import type { ActivityLog } from "../../activities/tokens.ts";
import type { ChildProcessEnvironment } from "../tokens.ts";
import { open, seal, SealBrokenError, type Sealed } from "../crypto/cipher.ts";
import { vaultErrors } from "../errors.ts";
import type { VaultInjectionRow } from "../entities/vault-injection.ts";
import { VaultSecret, type VaultSecretRow } from "../entities/vault-secret.ts";
import type { VaultKeyring } from "./keyring.ts";
import { isProtectedVariable } from "./protected-env.ts";
import { SecretView, type SecretEntry } from "./secret-view.ts";

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
/** Column lists in double quotes: PostgreSQL folds unquoted camelCase names to lower case. */
const quoted = (fields: readonly string[]) => fields.map((f) => `"${f}"`).join(", ");
const ALL = quoted(FIELDS);
const METADATA = quoted(METADATA_FIELDS);
/** Reads through the kit return metadata only: the seal is read by the steps below, never listed. */
const metadata = defineStore(VaultSecret, { fields: METADATA_FIELDS, orderBy: { name: "asc" } });
const INSERT = `INSERT INTO vault_secrets (${ALL}) VALUES (${FIELDS.map(() => "?").join(", ")})`;
const UPDATE = `UPDATE vault_secrets SET ciphertext = ?, iv = ?, tag = ?, "updatedAt" = ?,
    description = CASE WHEN ? THEN description ELSE ? END,
    category = COALESCE(?, category)
  WHERE id = ?`;
const TOUCH = `UPDATE vault_secrets SET "lastAccessedAt" = ? WHERE id = ?`;
const SEALS = `SELECT id, name, ciphertext, iv, tag FROM vault_secrets`;
// Team mode's injections (entities/vault-injection.ts): the newest per variable wins.
const INJECTIONS = `SELECT "envVar", secret, "instanceId" FROM vault_injections`;
const RECORD_INJECTION = `INSERT INTO vault_injections ("envVar", secret, "instanceId", "injectedAt") VALUES (?, ?, ?, ?)
  ON CONFLICT ("envVar") DO UPDATE SET secret = excluded.secret, "instanceId" = excluded."instanceId", "injectedAt" = excluded."injectedAt"`;

/** How often the PostgreSQL view reloads what other processes changed (secret-view.ts). */
export const VIEW_REFRESH_MS = 2_000;
/** PostgreSQL: the channel on which a secret's save or deletion wakes every instance's view (delivered at the commit). */
const VIEW_CHANNEL = "vault_secrets";
const NOTIFY_CHANGED = `SELECT pg_notify('${VIEW_CHANNEL}', '')`;

export interface SecretStoreDeps {
  db: () => Database;
  keyring: VaultKeyring;
  environment: ChildProcessEnvironment;
  activities: ActivityLog;
  events: EventBus;
  logger: Logger;
  /** Team mode: which instances live, so that only their injections count. */
  instances: Pick<Instances, "id" | "liveIds">;
}

type Audit = { actor: string; action: string; details?: string };

export class SecretStore {
  /** SQLite: decrypted values for redaction, rebuilt lazily after any write. */
  private plainCache: { name: string; value: string }[] | null = null;
  /** PostgreSQL: the synchronous members' view of every secret (secret-view.ts); null on SQLite. */
  private readonly view: SecretView | null;
  private refreshTimer: NodeJS.Timeout | undefined;
  private listener: DatabaseListener | undefined;
  private reloading: Promise<void> | undefined;

  private readonly deps: SecretStoreDeps;
  private readonly rows: EntityStore<typeof VaultSecret>;

  constructor(deps: SecretStoreDeps) {
    this.deps = deps;
    this.rows = metadata.on(deps.db);
    this.view = deps.db().engine === "postgresql" ? new SecretView() : null;
  }

  private get sql() {
    return this.deps.db().sql;
  }

  /** All secrets' metadata, by name. */
  async list(): Promise<SecretMetadata[]> {
    await this.deps.keyring.checkedKey();
    return (await this.rows.list()) as SecretMetadata[];
  }

  /** Creates the secret, or re-encrypts it under a fresh IV when the name exists. */
  async save(input: SaveSecretInput, actor: string): Promise<{ secret: SecretMetadata; created: boolean }> {
    const undo: { view?: () => void } = {};
    let result: { secret: SecretMetadata; created: boolean };
    try {
      result = await atomically(this.deps.db(), (tx) => this.saveSteps(tx, input, actor, undo));
    } catch (error) {
      undo.view?.(); // rolled back: the view holds what is stored again
      throw error;
    }
    this.plainCache = null;
    this.deps.environment.refresh(input.name, input.value);
    const { id, name, category, createdBy } = result.secret;
    this.deps.events.publish(`vault.secret.${result.created ? "created" : "updated"}`, { id, name, category, createdBy }, { public: true });
    return result;
  }

  private *saveSteps(tx: AtomicTx, input: SaveSecretInput, actor: string, undo: { view?: () => void }): AtomicStatementStep<{ secret: SecretMetadata; created: boolean }> {
    yield* tx.lock(`vault_secrets:${input.name}`);
    const key = yield* this.deps.keyring.keyIn(tx);
    const now = new Date().toISOString();
    const existing = yield* tx.get<{ id: string }>("SELECT id FROM vault_secrets WHERE name = ?", [input.name]);
    const id = existing?.id ?? randomUUID();
    const sealed = seal(key, { id, name: input.name }, input.value);
    if (existing) {
      const keepDescription = input.description === undefined;
      yield* tx.run(UPDATE, [sealed.ciphertext, sealed.iv, sealed.tag, now, keepDescription, input.description ?? null, input.category ?? null, id]);
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
      yield* tx.run(INSERT, FIELDS.map((f) => row[f]));
    }
    const secret = (yield* tx.get<SecretMetadata>(`SELECT ${METADATA} FROM vault_secrets WHERE id = ?`, [id]))!;
    this.deps.activities.log({ agentId: actor, action: existing ? "vault_secret_updated" : "vault_secret_created", target: input.name });
    // Other instances reload their views at this step's commit (startView listens).
    if (this.view) yield* tx.get(NOTIFY_CHANGED);
    // Last, before the commit: redaction on this process knows the value before anyone can read it stored.
    undo.view = this.view?.put(input.name, { id, value: input.value });
    return { secret, created: !existing };
  }

  /** Deletes by name (404 when unknown) and drops variables injected from it. */
  async remove(name: string, actor: string): Promise<SecretMetadata> {
    const removed = await atomically(this.deps.db(), (tx) => this.removeSteps(tx, name, actor));
    if (!removed) throw vaultErrors.VAULT_SECRET_NOT_FOUND({ name });
    // After the commit: until then the value is stored, so redaction must still know it.
    this.view?.forget(name, removed.generation);
    this.plainCache = null;
    this.deps.environment.forget(name);
    this.deps.events.publish("vault.secret.deleted", { id: removed.row.id, name }, { public: true });
    return removed.row;
  }

  private *removeSteps(tx: AtomicTx, name: string, actor: string): AtomicStatementStep<{ row: SecretMetadata; generation: number | undefined } | undefined> {
    yield* tx.lock(`vault_secrets:${name}`);
    yield* this.deps.keyring.keyIn(tx);
    const row = yield* tx.get<SecretMetadata>(`SELECT ${METADATA} FROM vault_secrets WHERE name = ?`, [name]);
    if (!row) return undefined;
    yield* tx.run("DELETE FROM vault_secrets WHERE id = ?", [row.id]);
    if (this.view) {
      yield* tx.run("DELETE FROM vault_injections WHERE secret = ?", [name]);
      yield* tx.get(NOTIFY_CHANGED);
    }
    this.deps.activities.log({ agentId: actor, action: "vault_secret_deleted", target: name });
    return { row, generation: this.view?.generationOf(name) };
  }

  /**
   * Decrypts one secret and sets its `lastAccessedAt`, in one step with the key id check;
   * with `audit`, the activity entry is written in the same step, so an access that cannot be
   * audited does not happen. Returns null for an unknown name. A value that does not
   * authenticate is reported as corrupted for this secret only.
   */
  async read(name: string, audit?: Audit): Promise<string | null> {
    return atomically(this.deps.db(), (tx) => this.readSteps(tx, name, audit));
  }

  private *readSteps(tx: AtomicTx, name: string, audit: Audit | undefined): AtomicStatementStep<string | null> {
    const key = yield* this.deps.keyring.keyIn(tx);
    const row = yield* tx.get<VaultSecretRow>(`SELECT ${ALL} FROM vault_secrets WHERE name = ?`, [name]);
    if (!row) return null;
    const value = this.decrypt(key, row);
    yield* tx.run(TOUCH, [new Date().toISOString(), row.id]);
    if (audit) this.deps.activities.log({ agentId: audit.actor, action: audit.action, target: name, details: audit.details ?? null });
    return value;
  }

  /** Whether `name` is stored (metadata only; the vault must be unlocked, as for every other read). */
  has(name: string): boolean {
    this.deps.keyring.requireKey();
    if (this.view) return this.view.has(name);
    return this.sql.prepare("SELECT 1 FROM vault_secrets WHERE name = ?").get(name) !== undefined;
  }

  /** {@link read} without an audit, synchronously, for VaultSecretReader.get (see the top of this file). */
  readNow(name: string): string | null {
    if (this.view) return this.readFromView(name);
    const sql = this.sql;
    // One read snapshot for the key id check and the row, so a concurrent rotation is seen
    // as "re-keyed" (503), never as a corrupted secret.
    const { key, row } = sql.transaction(() => ({
      key: this.deps.keyring.requireKey(),
      row: sql.prepare(`SELECT ${ALL} FROM vault_secrets WHERE name = ?`).get(name) as VaultSecretRow | undefined,
    }))();
    if (!row) return null;
    const value = this.decrypt(key, row);
    sql.prepare(TOUCH).run(new Date().toISOString(), row.id);
    return value;
  }

  /** PostgreSQL's `readNow`: the view's value; `lastAccessedAt` is stored just after (a failure is logged, the value still returned). */
  private readFromView(name: string): string | null {
    this.deps.keyring.requireKey();
    const entry = this.view!.get(name);
    if (!entry) return null;
    if (entry.value === null) throw this.corrupted(name, entry.id);
    this.rows
      .update(entry.id, { lastAccessedAt: new Date().toISOString() })
      .catch((error: unknown) => this.deps.logger.warn({ err: error, secret: name }, "a secret's lastAccessedAt could not be stored"));
    return entry.value;
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
    // Team mode: recorded for the other instances, whose views reload at the commit.
    if (this.view) {
      const instanceId = this.deps.instances.id;
      await atomically(this.deps.db(), function* (tx) {
        yield* tx.run(RECORD_INJECTION, [envVar, name, instanceId, new Date().toISOString()]);
        yield* tx.get(NOTIFY_CHANGED);
      });
    }
    this.deps.events.publish("vault.secret.injected", { name, envVar }, { public: false });
  }

  /** Every readable secret value, for redaction; empty while the vault is locked. */
  knownValues(): { name: string; value: string }[] {
    // Called for every free-text field a request writes, so the common cases read nothing
    // they do not need: a locked vault knows no value (requireKey could only throw), and
    // with the values cached only the key id is checked, one statement, which needs no
    // transaction to be consistent with itself.
    if (!this.deps.keyring.holdsKey()) return [];
    if (this.view) {
      // Between the key's unlock and the view's first load (the vault's start hook), another
      // plugin's background write must not be redacted against nothing: redaction fails closed.
      if (!this.view.loaded) throw new Error("the vault's view of stored secrets is not loaded yet");
      return this.view.values();
    }
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
        rows: sql.prepare(SEALS).all() as Pick<VaultSecretRow, "id" | "name" | keyof Sealed>[],
      }))());
    } catch {
      return [];
    }
    const values: { name: string; value: string }[] = [];
    for (const row of rows) {
      const value = this.openOrNull(key, row);
      // A corrupted secret cannot leak through redaction either; it is reported when read.
      if (value !== null) values.push({ name: row.name, value });
    }
    this.plainCache = values;
    return values;
  }

  /**
   * PostgreSQL: loads the view (secret-view.ts) once the key is unlocked, then reloads it
   * every {@link VIEW_REFRESH_MS} for other processes' changes. Nothing on SQLite. A failed
   * first load throws (the vault is then unavailable: redaction must not run on an empty view).
   */
  async startView(): Promise<void> {
    if (!this.view || !this.deps.keyring.holdsKey()) return;
    // A save cannot come before the routes serve; should one have, the next load applies.
    while (!(await this.reloadView()) && this.deps.keyring.holdsKey());
    const tick = () => {
      this.refreshTimer = setTimeout(() => {
        this.reloading = this.reloadView()
          .then(() => undefined, (error: unknown) => this.deps.logger.warn({ err: error }, "the vault's view of stored secrets could not be reloaded; it keeps what it had"))
          .finally(() => this.refreshTimer !== undefined && tick());
      }, VIEW_REFRESH_MS);
      this.refreshTimer.unref();
    };
    tick();
    // Another instance's save or deletion reloads this view at once, not at the next tick;
    // the tick stays for what comes without a notification (`muster vault rotate`, a lost link).
    this.listener = await this.deps.db().listen?.(VIEW_CHANNEL, () => {
      if (this.refreshTimer === undefined) return;
      this.reloading = Promise.resolve(this.reloading)
        .then(() => this.reloadView())
        .then(() => undefined, (error: unknown) => this.deps.logger.warn({ err: error }, "the vault's view of stored secrets could not be reloaded; it keeps what it had"));
    });
  }

  /** Stops the reloads (at shutdown, before the database closes) and forgets the view. */
  async stopView(): Promise<void> {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    await this.listener?.close();
    await this.reloading;
    if (this.view) {
      // Its injections end with this server, as on one process (a killed one's stop counting with its heartbeat).
      const instanceId = this.deps.instances.id;
      await atomically(this.deps.db(), function* (tx) {
        yield* tx.run(`DELETE FROM vault_injections WHERE "instanceId" = ?`, [instanceId]);
        yield* tx.get(NOTIFY_CHANGED);
      }).catch((error: unknown) => this.deps.logger.warn({ err: error }, "this instance's injected variables could not be withdrawn; they stop counting once its heartbeat is old"));
    }
    this.view?.clear();
  }

  /**
   * PostgreSQL: reloads the view now, so it holds every change committed before the call
   * (`VAULT_SECRETS.current`); a reload not applied because this process changed a secret
   * meanwhile is tried again (twice). SQLite reads the database on every call: nothing to do.
   */
  async current(): Promise<void> {
    if (!this.view) return;
    for (let attempt = 0; attempt < 3 && this.deps.keyring.holdsKey(); attempt++) if (await this.reloadView()) return;
  }

  /**
   * Every secret read with the key id checked in the same step, then decrypted into the view;
   * whether it was applied (not when this process changed a secret meanwhile, or the vault is locked).
   */
  private async reloadView(): Promise<boolean> {
    const view = this.view!;
    if (!this.deps.keyring.holdsKey()) {
      view.clear();
      return false;
    }
    const version = view.version();
    const live = new Set(await this.deps.instances.liveIds());
    const { key, rows, injections } = await atomically(this.deps.db(), (tx) => this.sealsSteps(tx));
    const entries = new Map<string, SecretEntry>();
    for (const row of rows) entries.set(row.name, { id: row.id, value: this.openOrNull(key, row) });
    if (!view.replace(entries, version)) return false;
    const shared: { envVar: string; secret: string; value: string }[] = [];
    for (const { envVar, secret, instanceId } of injections) {
      const value = entries.get(secret)?.value;
      if (live.has(instanceId) && value != null) shared.push({ envVar, secret, value });
    }
    // The database's list is the deployment's: this instance's own injections are in it too.
    this.deps.environment.share(shared);
    return true;
  }

  private *sealsSteps(tx: AtomicTx): AtomicStatementStep<{ key: Buffer; rows: Pick<VaultSecretRow, "id" | "name" | keyof Sealed>[]; injections: Pick<VaultInjectionRow, "envVar" | "secret" | "instanceId">[] }> {
    const key = yield* this.deps.keyring.keyIn(tx);
    const rows = yield* tx.all<Pick<VaultSecretRow, "id" | "name" | keyof Sealed>>(SEALS);
    return { key, rows, injections: yield* tx.all<Pick<VaultInjectionRow, "envVar" | "secret" | "instanceId">>(INJECTIONS) };
  }

  private openOrNull(key: Buffer, row: Pick<VaultSecretRow, "id" | "name" | keyof Sealed>): string | null {
    try {
      return open(key, row, row);
    } catch {
      return null;
    }
  }

  private decrypt(key: Buffer, row: VaultSecretRow): string {
    try {
      return open(key, row, row);
    } catch (error) {
      if (!(error instanceof SealBrokenError)) throw error;
      throw this.corrupted(row.name, row.id);
    }
  }

  private corrupted(name: string, id: string) {
    this.deps.logger.error({ code: "VAULT_SECRET_CORRUPTED", secret: name, id }, "a stored secret failed authentication");
    return vaultErrors.VAULT_SECRET_CORRUPTED({
      name,
      reason: "its stored ciphertext, IV or tag was altered or belongs to another secret. Other secrets are unaffected; store it again to replace it",
    });
  }
}
