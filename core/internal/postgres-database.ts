// Team mode's database (issue 25, DESIGN §16): PostgreSQL through MikroORM's PostgreSQL
// driver, chosen by DATABASE_URL=postgres://…. Loaded only then (host.ts imports it
// dynamically), so the default SQLite start loads none of it.
//
// What works: MikroORM's entity manager and query builder (so every store-kit method), the
// plugins' migrations (rewritten to PostgreSQL's dialect, postgres-dialect.ts), `/api/health`,
// and storage faults answered as on SQLite (database-faults.ts, postgres-link.ts): a locked
// row waited out within the busy budget, then 503 DATABASE_BUSY; a full disk 507; a server
// that is gone, shutting down or read-only 503 DATABASE_UNAVAILABLE; health degraded meanwhile.
// What does not yet: the synchronous better-sqlite3 connection (`db.sql`) the stores of most
// built-in plugins still use for their atomic steps; reaching for it says so (docs/team.md lists every such path and its replacement).
import { BooleanType, type EntitySchema } from "@mikro-orm/core";
import { MikroORM } from "@mikro-orm/postgresql";
import pino, { type Logger } from "pino";
import type { Database, DatabaseListener } from "../plugin-api/context.ts";
import type { Migration } from "../plugin-api/migrations.ts";
import { isStartError, startErrors } from "./start-errors.ts";
import { tablePrefix } from "./plugin-tables.ts";
import { trackWriteHealth } from "./database-faults.ts";
import { backoffWaiter, SERVING_BUSY_TIMEOUT_MS, STARTUP_BUSY_TIMEOUT_MS } from "./database-busy.ts";
import { watchPostgresLink, type PgPool, type PostgresLink } from "./postgres-link.ts";
import { toPostgres, type BooleanColumns } from "./postgres-dialect.ts";
import { redactedDatabaseUrl } from "./postgres-tools.ts";
import { listenPostgres } from "./postgres-listener.ts";
import { postgresConnection, type PgConnection } from "./postgres-connection.ts";
import { engineNeutralOrmOptions, type DatabaseState, type OpenedDatabase, type PluginMigrations } from "./database.ts";

/** How long start-up waits for the server before DATABASE_UNREACHABLE. */
const CONNECT_TIMEOUT_MS = 10_000;
/** How long `/api/health` waits for `SELECT 1` before it reports the database as an error. */
const PING_TIMEOUT_MS = 2_000;
/**
 * The longest one statement of Muster's waits in PostgreSQL's lock queue for a row another
 * connection holds (`lock_timeout`, 55P03 after it). The busy budget bounds the whole wait:
 * the storage guard re-runs the handler after each 55P03 while the budget lasts. Waiting in
 * slices, not the whole budget at once, means a request whose client left, or whose budget
 * ran out, holds a pooled connection at most this much longer.
 */
const LOCK_WAIT_SLICE_MS = 1_000;

/** The connections' `lock_timeout`: a slice, or the whole budget when it is shorter (never 0, which is "wait forever"). */
export function lockTimeoutMs(busyBudgetMs: number): number {
  return Math.max(SERVING_BUSY_TIMEOUT_MS, Math.min(busyBudgetMs, LOCK_WAIT_SLICE_MS));
}


export interface OpenPostgresOptions {
  url: string;
  entities: EntitySchema<any, any>[];
  logger: Logger;
  /** The request's time budget for a locked row (config `databaseBusyBudgetMs`); sets `lock_timeout`. */
  busyBudgetMs?: number;
}

/** A `Promise` that rejects after `ms`, so that no database call can hang start-up or health. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Opens the PostgreSQL database at `url` and checks that it answers; throws
 * DATABASE_UNREACHABLE (within {@link CONNECT_TIMEOUT_MS}) when it does not.
 */
export async function openPostgresDatabase({ url, entities, logger, busyBudgetMs = 5_000 }: OpenPostgresOptions): Promise<OpenedDatabase> {
  const shown = redactedDatabaseUrl(url);
  let pg: PgConnection;
  try {
    // DATABASE_URL read as libpq reads it (a socket host, sslmode): MikroORM reads only host, port, user, password and database.
    pg = await postgresConnection(url, CONNECT_TIMEOUT_MS);
  } catch (error) {
    throw startErrors.DATABASE_UNREACHABLE({ url: shown, reason: (error as Error).message }, { cause: error });
  }
  let link: PostgresLink | undefined;
  let pool: PgPool | undefined;
  const orm = await MikroORM.init({
    host: pg.host,
    port: pg.port,
    user: pg.user,
    password: pg.password,
    dbName: pg.database,
    ...engineNeutralOrmOptions(entities),
    pool: { min: 0, max: 10 },
    driverOptions: {
      ssl: pg.ssl,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // `pg` sends it as a start-up parameter: every pooled connection has it.
      lock_timeout: lockTimeoutMs(busyBudgetMs),
      onPoolCreated: (created: PgPool) => void ((pool = created), (link = watchPostgresLink(created))),
    },
  });
  const connection = orm.em.getConnection();
  try {
    await within(CONNECT_TIMEOUT_MS + 1_000, "connecting", connection.execute("SELECT 1"));
  } catch (error) {
    await orm.close(true).catch(() => {});
    throw startErrors.DATABASE_UNREACHABLE({ url: shown, reason: (error as Error).message || String(error) }, { cause: error });
  }
  logger.debug({ url: shown }, "database opened (PostgreSQL)");
  // A recorded fault ends when a later statement of Muster's changes a row. There is no one
  // write lock to probe (a busy fault is a row another connection held), so a busy fault too
  // lasts until a write succeeds again.
  const writeHealth = trackWriteHealth({ totalChanges: () => link?.changes ?? 0, writeLockFree: () => false });
  const listeners = new Set<DatabaseListener>();
  const database: OpenedDatabase = {
    engine: "postgresql",
    orm: orm as unknown as OpenedDatabase["orm"],
    get sql(): never {
      throw new Error("db.sql (the synchronous SQLite connection) is not available on PostgreSQL yet: this store still needs its driver-neutral replacement (docs/team.md, issue 25)");
    },
    em: () => orm.em.fork() as unknown as ReturnType<Database["em"]>,
    writeHealth,
    // Locked rows are waited for in PostgreSQL (lock_timeout); between attempts a short backoff.
    lockWaiter: backoffWaiter(),
    startServing() {},
    // MikroORM is built in openPostgresDatabase (its modules load with this one, after the host decides on team mode).
    async loadOrm() {},
    async state(): Promise<DatabaseState> {
      try {
        await within(PING_TIMEOUT_MS, "SELECT 1", connection.execute("SELECT 1"));
        const fault = writeHealth.current();
        return fault ? { database: "degraded", fault } : { database: "ok" };
      } catch {
        return { database: "error" };
      }
    },
    // Straight to `pg`, past MikroORM's and kysely's layers (which also send every statement as
    // new SQL text with its values inlined): a hot statement is parsed once per connection.
    // Through the pool's `connect` and the client's promise `query`, which the link watcher
    // wraps, so a lost link and the rows changed are seen as for every other statement.
    async runPrepared(statement) {
      if (!pool) throw new Error("runPrepared: the pool is not created yet");
      const client = (await pool.connect()) as PgPooledClient;
      try {
        const result = (await client.query(statement)) as { rows: Record<string, unknown>[]; rowCount: number | null };
        return { rows: result.rows, changes: result.rowCount ?? 0 };
      } finally {
        client.release();
      }
    },
    migrate: (plugins) => migratePostgres(orm, plugins, booleanColumns(entities), logger),
    async listen(channel, onNotify) {
      const listener = await listenPostgres({ connection: pg, connectTimeoutMs: CONNECT_TIMEOUT_MS, logger }, channel, onNotify);
      listeners.add(listener);
      return { close: () => (listeners.delete(listener), listener.close()) };
    },
    async close() {
      // A plugin's listener left open would keep its connection (and the process) alive.
      await Promise.all([...listeners].map((listener) => listener.close()));
      database.lockWaiter.close();
      await orm.close(true);
    },
  };
  return database;
}

/** The part of `pg`'s pooled client that {@link Database.runPrepared} uses. */
interface PgPooledClient {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<unknown>;
  release(): void;
}

/** The boolean columns the entities declare, by table (SQLite keeps them as INTEGER 0/1). */
function booleanColumns(entities: EntitySchema<any, any>[]): BooleanColumns {
  const found = new Map<string, Set<string>>();
  for (const entity of entities) {
    const table = entity.meta.tableName;
    if (!table) continue;
    for (const [name, property] of Object.entries(entity.meta.properties as Record<string, { type?: unknown }>)) {
      // `p.boolean()` declares the type as MikroORM's BooleanType class; a plain schema may say "boolean".
      if (property.type === BooleanType || property.type === "boolean") (found.get(table) ?? found.set(table, new Set()).get(table)!).add(name);
    }
  }
  return found;
}

/** The advisory lock every instance's migration steps take (hashed to PostgreSQL's bigint key). */
const MIGRATION_LOCK_KEY = "muster:migrations";

/** The statements of a migration on PostgreSQL. */
function postgresStatements(migration: Migration, booleans: BooleanColumns): string[] {
  // A migration's own PostgreSQL statements get the same rewriting (they replace only what is SQLite-only).
  if (migration.postgresql !== undefined) return [migration.postgresql].flat().map((s) => toPostgres(s, booleans));
  if (typeof migration.up !== "function") return [migration.up].flat().map((s) => toPostgres(s, booleans));
  const statements: string[] = [];
  migration.up({ exec: (s) => void statements.push(toPostgres(s, booleans)) });
  return statements;
}

interface SchemaObject { kind: string; table: string }

/** Tables, indexes, sequences and views of the current schema, by name (what a migration may touch). */
async function schemaObjects(run: (sql: string) => Promise<unknown[]>): Promise<Map<string, SchemaObject>> {
  const rows = (await run(`SELECT c.relname AS name, c.relkind AS kind, coalesce(t.relname, c.relname) AS "table"
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_index i ON i.indexrelid = c.oid LEFT JOIN pg_class t ON t.oid = i.indrelid
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i', 'S', 'v', 'm', 'p')`)) as { name: string; kind: string; table: string }[];
  return new Map(rows.map((r) => [r.name, { kind: r.kind, table: r.table }]));
}

/**
 * The SQLite runner's rules on PostgreSQL (database.ts `migrate`): each migration and its
 * record commit in one transaction (PostgreSQL's DDL is transactional too); a failure rolls it
 * back (MIGRATION_FAILED); an applied migration a loaded plugin does not ship refuses start-up
 * (MIGRATION_UNKNOWN_APPLIED); a migration that creates or drops an object outside its
 * plugin's prefix is refused (PLUGIN_TABLE_PREFIX). Identity sequences and primary-key and
 * unique indexes are named by PostgreSQL after their table, so they carry its prefix.
 */
export async function migratePostgres(orm: MikroORM, plugins: PluginMigrations[], booleans: BooleanColumns, logger: Logger): Promise<string[]> {
  const connection = orm.em.getConnection();
  // Several instances may start at once on one database (team mode): each step below that
  // changes the schema holds one transaction-scoped advisory lock and checks again under it,
  // so the first instance applies a migration and the others wait, find its record and skip
  // it. (Without the lock the second CREATE TABLE of a migration failed and that instance
  // refused to start.) CREATE TABLE IF NOT EXISTS itself races in PostgreSQL's catalog.
  const locked = async <T>(work: (run: (sql: string, params?: unknown[]) => Promise<unknown[]>) => Promise<T>): Promise<T> =>
    connection.transactional(async (trx) => {
      const run = (sql: string, params: unknown[] = []) => connection.execute(sql, params, "all", trx) as Promise<unknown[]>;
      // Nothing is served during start-up: a migration may wait for a lock longer than a request (as on SQLite).
      await run(`SET LOCAL lock_timeout = ${STARTUP_BUSY_TIMEOUT_MS}`);
      await run("SELECT pg_advisory_xact_lock(hashtext(?))", [MIGRATION_LOCK_KEY]);
      return work(run);
    });
  await locked(async (run) => {
    await run(`CREATE TABLE IF NOT EXISTS muster_migrations (id TEXT PRIMARY KEY, plugin TEXT NOT NULL, "appliedAt" TEXT NOT NULL)`);
    // The host's own: which instances serve this database (instance-registry.ts).
    await run(`CREATE TABLE IF NOT EXISTS muster_instances (id TEXT PRIMARY KEY, "startedAt" TEXT NOT NULL, "heartbeatAt" BIGINT NOT NULL)`);
    // The deployment's shared secrets and spent login codes (team-secrets.ts).
    await run(`CREATE TABLE IF NOT EXISTS muster_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    await run(`CREATE TABLE IF NOT EXISTS muster_login_codes (nonce TEXT PRIMARY KEY, "expiresAt" BIGINT NOT NULL)`);
    // The crew's rate limits across instances (shared-rate-limits.ts).
    await run(`CREATE TABLE IF NOT EXISTS muster_rate_slots (id TEXT PRIMARY KEY, feature TEXT NOT NULL, instance TEXT NOT NULL, "startedAt" BIGINT NOT NULL, "releasedAt" BIGINT)`);
    // One instance holds each gateway link; the others forward calls and read its events (gateway/lease-tables.ts).
    await run(`CREATE TABLE IF NOT EXISTS muster_gateway_leases (link TEXT PRIMARY KEY, "instanceId" TEXT NOT NULL, since BIGINT NOT NULL, state TEXT)`);
    await run(`CREATE TABLE IF NOT EXISTS muster_gateway_calls (id TEXT PRIMARY KEY, link TEXT NOT NULL, holder TEXT NOT NULL, method TEXT NOT NULL, params TEXT NOT NULL, "twoStage" BOOLEAN NOT NULL, "timeoutMs" INTEGER NOT NULL, "createdAt" BIGINT NOT NULL, state TEXT NOT NULL, accepted TEXT, outcome TEXT)`);
    await run(`CREATE TABLE IF NOT EXISTS muster_gateway_events (id BIGSERIAL PRIMARY KEY, link TEXT NOT NULL, event TEXT NOT NULL, payload TEXT NOT NULL, "createdAt" BIGINT NOT NULL)`);
  });
  const rows = (await connection.execute("SELECT id, plugin FROM muster_migrations")) as { id: string; plugin: string }[];
  const applied = new Set(rows.map((r) => r.id));
  const loaded = new Set(plugins.map((p) => p.pluginId));
  for (const plugin of plugins) {
    const known = new Set(plugin.migrations.map((m) => `${plugin.pluginId}:${m.name}`));
    const unknown = rows.find((r) => r.plugin === plugin.pluginId && !known.has(r.id));
    if (unknown && loaded.has(unknown.plugin)) throw startErrors.MIGRATION_UNKNOWN_APPLIED({ migration: unknown.id, plugin: plugin.pluginId });
  }
  const done: string[] = [];
  for (const plugin of plugins) {
    const prefix = tablePrefix(plugin.pluginId);
    for (const migration of plugin.migrations) {
      const id = `${plugin.pluginId}:${migration.name}`;
      if (applied.has(id)) continue;
      try {
        const appliedHere = await locked(async (run) => {
          // Another instance may have applied it while this one waited for the lock.
          if ((await run("SELECT 1 FROM muster_migrations WHERE id = ?", [id])).length > 0) return false;
          const before = await schemaObjects(run);
          for (const statement of postgresStatements(migration, booleans)) await run(statement);
          const after = await schemaObjects(run);
          for (const [name, object] of [...after].filter(([n]) => !before.has(n)).concat([...before].filter(([n]) => !after.has(n)))) {
            const outside = [name, object.table].find((n) => !n.startsWith(prefix));
            if (outside === undefined) continue;
            const verb = after.has(name) ? "creates" : "drops";
            throw startErrors.PLUGIN_TABLE_PREFIX({ id: plugin.pluginId, what: `migration ${id} ${verb} ${object.kind === "i" ? "index" : "table"}`, name: outside === name ? name : `${name} on ${outside}`, prefix });
          }
          await run(`INSERT INTO muster_migrations (id, plugin, "appliedAt") VALUES (?, ?, ?)`, [id, plugin.pluginId, new Date().toISOString()]);
          return true;
        });
        if (!appliedHere) continue;
      } catch (error) {
        if (isStartError(error)) throw error;
        throw startErrors.MIGRATION_FAILED({ migration: id, reason: (error as Error).message }, { cause: error });
      }
      logger.info({ migration: id }, "migration applied");
      done.push(id);
    }
  }
  return done;
}

/**
 * `muster doctor`'s database check in team mode: the server answers within the bounded connect,
 * and which of the shipped migrations it has (`known`: each plugin's migration names).
 */
export async function checkPostgresLink(url: string, known: { pluginId: string; names: string[] }[]): Promise<{ status: "ok" | "fail"; detail: string; fix?: string }> {
  const shown = redactedDatabaseUrl(url);
  let db: OpenedDatabase | undefined;
  try {
    db = await openPostgresDatabase({ url, entities: [], logger: pino({ level: "silent" }) });
    const connection = db.orm.em.getConnection();
    const [row] = (await connection.execute("SELECT to_regclass('muster_migrations') IS NOT NULL AS exists")) as { exists: boolean }[];
    const exists = row?.exists === true;
    const applied = exists ? ((await connection.execute("SELECT id FROM muster_migrations")) as { id: string }[]).map((r) => r.id) : [];
    const shipped = known.flatMap((p) => p.names.map((n) => `${p.pluginId}:${n}`));
    const pending = shipped.filter((id) => !applied.includes(id)).length;
    return { status: "ok", detail: `PostgreSQL at ${shown} answers, ${applied.length} migrations applied${pending ? `, ${pending} pending (applied at the next start)` : ""}` };
  } catch (error) {
    return { status: "fail", detail: (error as Error).message, fix: "check DATABASE_URL (host, port, user, password, database) and that the PostgreSQL server runs and accepts this client" };
  } finally {
    await db?.close();
  }
}
