// MikroORM's SQLite driver, with one change: the statements its query builder runs are
// prepared once per SQL text and reused.
//
// Why: kysely's SQLite connection calls better-sqlite3's `prepare(sql)` for every query it
// executes, and better-sqlite3 13 compiles a row factory for every prepared statement.
// Under `npm run bench:api` that preparation was 19.5% of the server's CPU on
// `GET /api/tasks` once the list ran through the query builder; with this cache, 0.6%.
// MikroORM 7 inlines parameter values into the SQL text (escaped by its platform), so only
// queries without values repeat their text (the unfiltered lists, the hottest reads);
// statements that return no rows (writes, whose values make every text new) are not cached;
// reads with values, and writes with RETURNING, age out of the bounded cache.
// A statement is reusable as long as nothing changes its mode (kysely never calls `pluck`,
// `raw` or `expand`) and it is not in the middle of an `iterate()` (a busy statement is
// replaced by a fresh one). Only the ORM's view of the connection caches: raw statements a
// plugin prepares on `db.sql` (its `hostTokens.db`) are the plugin's own, so a `pluck()` there cannot leak
// into an ORM query.
// better-sqlite3 13 segfaults on Node < 24: every database user (host, tests) passes here first.
import "../node-version-guard.js";
import type BetterSqlite3 from "better-sqlite3";
import { SqliteDialect } from "kysely";
import { AbstractSqlDriver, MikroORM, SqliteConnection, SqlitePlatform, type Configuration } from "@mikro-orm/sqlite";

/**
 * The key of `driverOptions` that hands the driver the better-sqlite3 database the host opened
 * (database.ts opens it before MikroORM exists, so that MikroORM's metadata discovery can wait
 * until after the server listens).
 */
// database.ts loads this module (and through it @mikro-orm/sql and kysely) with import(), so
// it hands on MikroORM's class too.
export { MikroORM };

export const OPENED_DATABASE = Symbol("muster.openedDatabase");

/** How many distinct SQL texts keep a prepared statement (least recently used go first). */
const CACHED_STATEMENTS = 512;

/** What kysely's SQLite dialect uses of a database: `prepare` and `close`. */
interface DialectDatabase {
  prepare(sql: string): BetterSqlite3.Statement;
  close(): void;
}

/** A view of `db` whose `prepare` reuses statements by SQL text. */
export function statementCachingView(db: BetterSqlite3.Database, capacity = CACHED_STATEMENTS): DialectDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sql) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = db.prepare(sql);
      // Statements that return no rows are writes with their values inline (a new text each
      // time): caching them would only churn the cache and keep dead statements alive.
      if (!statement.reader) return statement;
      cache.set(sql, statement);
      if (cache.size > capacity) cache.delete(cache.keys().next().value!);
      return statement;
    },
    close: () => db.close(),
  };
}

class StatementCachingConnection extends SqliteConnection {
  override createKyselyDialect(options: Parameters<SqliteConnection["createKyselyDialect"]>[0]) {
    const opened = (options as { [OPENED_DATABASE]?: BetterSqlite3.Database })[OPENED_DATABASE];
    if (!opened) throw new Error("CachingSqliteDriver needs driverOptions[OPENED_DATABASE]: the database the host opened");
    // Kept as `this.database`, the native client MikroORM hands out (a plain field in
    // MikroORM's JavaScript; its typings mark it private).
    (this as unknown as { database: BetterSqlite3.Database }).database = opened;
    return new SqliteDialect({ database: statementCachingView(opened) });
  }
}

/** `driver` for MikroORM: the SQLite driver over {@link StatementCachingConnection}. */
export class CachingSqliteDriver extends AbstractSqlDriver<StatementCachingConnection> {
  constructor(config: Configuration) {
    super(config, new SqlitePlatform(), StatementCachingConnection, ["kysely", "better-sqlite3"]);
  }

  override getORMClass() {
    return MikroORM;
  }
}
