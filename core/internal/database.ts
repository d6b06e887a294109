// The embedded SQLite database: MikroORM for entities and the unit of work, the same
// better-sqlite3 connection for raw hot reads, and a migration runner that applies each
// plugin's migrations in plugin start order, each atomic with its record.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { EntityCaseNamingStrategy, type EntitySchema } from "@mikro-orm/core";
import type { MikroORM } from "@mikro-orm/sqlite";
import BetterSqlite3 from "better-sqlite3";
import type { Logger } from "pino";
import type { Database } from "../plugin-api/context.ts";
import type { Migration } from "../plugin-api/migrations.ts";
import { SERVING_BUSY_TIMEOUT_MS, STARTUP_BUSY_TIMEOUT_MS, WriteLockWaiter, writeLockFree } from "./database-busy.ts";
import { isStartError, startErrors } from "./start-errors.ts";
import { checkMigrationTables, schemaObjects } from "./plugin-tables.ts";
import { trackWriteHealth, type WriteFault, type WriteHealth } from "./database-faults.ts";


export interface OpenDatabaseOptions {
  path: string;
  /** A function when they are known only later (the host loads its plugins after opening): read when MikroORM is built. */
  entities: EntitySchema<any, any>[] | (() => EntitySchema<any, any>[]);
  logger: Logger;
  /**
   * Leave MikroORM's SQL modules (@mikro-orm/sql, @mikro-orm/sqlite, kysely: ~700 kB of the
   * start-up bundle) unloaded until {@link OpenedDatabase.loadOrm}: the host opens the
   * database before it listens and needs MikroORM only after (issue 26). Without it they are
   * loaded here, and `em()` works as soon as this resolves.
   */
  loadOrmLater?: boolean;
}

export interface DatabaseState {
  /** `error`: not even a trivial query answers; `degraded`: reads work, writes are failing. */
  database: "ok" | "degraded" | "error";
  /** Why writes are failing, while they are. */
  fault?: WriteFault;
}

export interface OpenedDatabase extends Database {
  /** Embedded SQLite (the default), or PostgreSQL in team mode (`DATABASE_URL`, postgres-database.ts). */
  readonly engine: "sqlite" | "postgresql";
  orm: MikroORM;
  close(): Promise<void>;
  /** SQLite answers at once, also while another process holds the write lock; PostgreSQL within a bounded wait. */
  state(): DatabaseState | Promise<DatabaseState>;
  /** Applies the plugins' pending migrations (see {@link migrate}); the applied ids. */
  migrate(plugins: PluginMigrations[]): Promise<string[]>;
  /** Whether writes currently fail; request failures are recorded here (storage-guard.ts). */
  writeHealth: WriteHealth;
  /**
   * Loads MikroORM's modules if they are not yet (see {@link OpenDatabaseOptions.loadOrmLater}):
   * `em()` and `orm` throw before this resolved.
   */
  loadOrm(): Promise<void>;
  /** The shared wait for another process's write lock. */
  lockWaiter: Pick<WriteLockWaiter, "wait" | "close">;
  /**
   * Switches from start-up to serving: from here on SQLite waits for a lock only
   * {@link SERVING_BUSY_TIMEOUT_MS} inside a statement, and requests wait asynchronously.
   * On SQLite, MikroORM (built on the first `em()`) exists from here on at the latest.
   */
  startServing(): void;
}

/** MikroORM's options on every engine (SQLite here, PostgreSQL in postgres-database.ts). */
export function engineNeutralOrmOptions(entities: EntitySchema<any, any>[]) {
  return {
    entities,
    // Columns keep the property names (quoted where the engine folds case), so raw rows
    // already have the camelCase field names of the API and need no mapping.
    namingStrategy: EntityCaseNamingStrategy,
    discovery: { warnWhenNoEntities: false },
    allowGlobalContext: false,
    // One SQLite connection serves both MikroORM and raw statements. ORM transactions span
    // several event-loop turns, so raw statements from other requests could land inside
    // them; with implicit transactions off, every atomic multi-statement change is a
    // synchronous `sql.transaction()` that nothing can interleave with. PostgreSQL keeps the
    // same flush behaviour, so a store behaves alike on both.
    implicitTransactions: false,
    debug: false,
  };
}

/** MikroORM's SQLite driver and what it needs: a module of its own, so that it can load after listening. */
type OrmModule = typeof import("./sqlite-driver.ts");

export async function openDatabase({ path, entities, logger, loadOrmLater = false }: OpenDatabaseOptions): Promise<OpenedDatabase> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  // Opened here, and MikroORM built over it only on the first `em()` (normally a plugin's
  // onStart, after the server listens; `startServing` at the latest, before any request is
  // let through): its metadata discovery of ~50 entities was ~70-100 ms of the path to the
  // first answer, which needs only this connection (docs/benchmarks.md, issue 26).
  const sql = new BetterSqlite3(path);
  sql.pragma("journal_mode = WAL");
  // Until the server listens, blocking is harmless and migrations may wait for a lock.
  sql.pragma(`busy_timeout = ${STARTUP_BUSY_TIMEOUT_MS}`);
  sql.pragma("foreign_keys = ON");
  sql.pragma("synchronous = NORMAL");
  logger.debug({ path }, "database opened");
  let orm: MikroORM | undefined;
  let ormModule: OrmModule | undefined;
  const loadOrm = async () => {
    ormModule ??= await import("./sqlite-driver.ts");
  };
  if (!loadOrmLater) await loadOrm();
  // Synchronous: with the entities given, MikroORM's constructor discovers their metadata at once.
  const ormNow = () => {
    if (orm) return orm;
    // A host bug, never a request's: the host loads the module right after listening.
    if (!ormModule) throw new Error("MikroORM used before its modules were loaded (OpenedDatabase.loadOrm)");
    const { MikroORM, CachingSqliteDriver, OPENED_DATABASE } = ormModule;
    return (orm = new MikroORM({
      // The SQLite driver with prepared statements reused by SQL text (see sqlite-driver.ts).
      driver: CachingSqliteDriver,
      dbName: path,
      // A function: MikroORM merges its options into a copy, which keeps functions as they are.
      driverOptions: () => ({ [OPENED_DATABASE]: sql }),
      ...engineNeutralOrmOptions(typeof entities === "function" ? entities() : entities),
    }));
  };
  // Neither statement reads a table, so neither waits for a lock.
  const ping = sql.prepare("SELECT 1");
  const totalChanges = sql.prepare("SELECT total_changes()").pluck();
  const writeHealth = trackWriteHealth({ totalChanges: () => totalChanges.get() as number, writeLockFree: () => writeLockFree(sql) });
  const lockWaiter = new WriteLockWaiter(sql);
  return {
    engine: "sqlite",
    get orm() {
      return ormNow();
    },
    sql,
    em: () => ormNow().em.fork() as ReturnType<Database["em"]>,
    writeHealth,
    lockWaiter,
    loadOrm,
    startServing() {
      ormNow();
      sql.pragma(`busy_timeout = ${SERVING_BUSY_TIMEOUT_MS}`);
    },
    state() {
      try {
        ping.get();
        const fault = writeHealth.current();
        return fault ? { database: "degraded", fault } : { database: "ok" };
      } catch {
        return { database: "error" };
      }
    },
    migrate: async (plugins) => migrate(sql, plugins, logger),
    async close() {
      lockWaiter.close();
      // MikroORM's close closes the connection once it has used it (kysely's driver calls its
      // `close`); one it never queried is still open here.
      await orm?.close(true);
      if (sql.open) sql.close();
    },
  };
}

export interface PluginMigrations {
  pluginId: string;
  migrations: Migration[];
}

/**
 * Applies pending migrations. Each migration is atomic with its record (a savepoint inside
 * the start's one migration transaction; SQLite's DDL is transactional), so a database is
 * never half-migrated: a migration that fails, or a process killed in the middle of one,
 * leaves nothing of it.
 * Refuses to start (throws MIGRATION_FAILED or MIGRATION_UNKNOWN_APPLIED) when a migration fails, and when the
 * database records a migration a loaded plugin does not ship (written by another version);
 * refuses (PLUGIN_TABLE_PREFIX, rolled back) a migration that creates, alters or drops a
 * table or index outside its plugin's prefix (see plugin-tables.ts).
 */
export function migrate(sql: BetterSqlite3.Database, plugins: PluginMigrations[], logger: Logger): string[] {
  sql.exec(`CREATE TABLE IF NOT EXISTS muster_migrations (
    id TEXT PRIMARY KEY,
    plugin TEXT NOT NULL,
    appliedAt TEXT NOT NULL
  )`);
  const rows = sql.prepare("SELECT id, plugin FROM muster_migrations").all() as { id: string; plugin: string }[];
  const applied = new Set(rows.map((r) => r.id));
  const loaded = new Set(plugins.map((p) => p.pluginId));
  for (const plugin of plugins) {
    const known = new Set(plugin.migrations.map((m) => `${plugin.pluginId}:${m.name}`));
    const unknown = rows.find((r) => r.plugin === plugin.pluginId && !known.has(r.id));
    if (unknown && loaded.has(unknown.plugin)) {
      throw startErrors.MIGRATION_UNKNOWN_APPLIED({ migration: unknown.id, plugin: plugin.pluginId });
    }
  }

  const done: string[] = [];
  const mark = sql.prepare("INSERT INTO muster_migrations (id, plugin, appliedAt) VALUES (?, ?, ?)");
  const pending = plugins.flatMap((plugin) => plugin.migrations.map((migration) => ({ plugin: plugin.pluginId, migration, id: `${plugin.pluginId}:${migration.name}` }))).filter((m) => !applied.has(m.id));
  if (pending.length === 0) return done;
  // All of a start's migrations commit together (one write of the schema pages instead of
  // one per migration: a fresh database has ~25); each is still atomic with its record, as a
  // savepoint inside (better-sqlite3 nests transactions that way). A failing one rolls back
  // to its savepoint and the ones before it still commit; a process killed in the middle
  // leaves none of this start's, and the next start applies them again.
  sql.exec("BEGIN");
  let schema = schemaObjects(sql);
  try {
    for (const { plugin, migration, id } of pending) {
      const run = sql.transaction(() => {
        if (typeof migration.up === "function") migration.up({ exec: (s) => void sql.exec(s) });
        else for (const statement of [migration.up].flat()) sql.exec(statement);
        const after = schemaObjects(sql);
        checkMigrationTables(plugin, id, schema, after);
        mark.run(id, plugin, new Date().toISOString());
        return after;
      });
      try {
        schema = run();
      } catch (error) {
        if (isStartError(error)) throw error; // PLUGIN_TABLE_PREFIX: rolled back like a failure, reported as itself
        throw startErrors.MIGRATION_FAILED({ migration: id, reason: (error as Error).message }, { cause: error });
      }
      logger.info({ migration: id }, "migration applied");
      done.push(id);
    }
  } finally {
    // The ones applied before a failure are kept, as when each committed on its own.
    if (sql.inTransaction) sql.exec("COMMIT");
  }
  return done;
}
