import { createHash } from "node:crypto";
import type BetterSqlite3 from "better-sqlite3";
import type { Database } from "./context.ts";
import { sqliteParams } from "./atomic-step.ts";

/**
 * The store kit's hot-path statement (issue 25, "Speed"): one SQL text, prepared once and
 * re-run with new parameters, on either engine. For a store's few statements that run on
 * every request (a list, a create), where the query builder's work per call (building and
 * formatting the SQL, values inlined into its text, which the database then parses and plans
 * anew each time) costs more than the statement itself.
 *
 * On SQLite a better-sqlite3 statement prepared once per connection and run synchronously
 * (the promise is settled before `all`/`run` returns, so nothing interleaves). On PostgreSQL
 * a named, server-side prepared statement run straight on a pooled connection: parsed and
 * planned once per connection, then only its values are sent.
 *
 * The SQL is written as for `atomically`: `?` placeholders, camelCase names in double quotes,
 * and only what both engines read alike (a store picks the text by `db.engine` where they
 * differ, such as SQLite's `rowid`). Boolean parameters may be booleans; rows come back as the
 * driver reads them (unmapped, like `mapRows: false`). Not inside an `atomically` step: a
 * statement that must commit with others belongs in the step.
 *
 * @example
 * const LIST = preparedStatement<NoteRow>(`SELECT id, title FROM notes_notes WHERE "ownerId" = ? ORDER BY "createdAt" DESC`);
 * const mine = await LIST.all(db(), [owner]);
 */
export interface PreparedStatement<T> {
  /** Every row it returns (also a write's `RETURNING` rows). */
  all(db: Database, params?: readonly unknown[]): Promise<T[]>;
  /** A write; how many rows it changed. */
  run(db: Database, params?: readonly unknown[]): Promise<{ changes: number }>;
}

/** `?` placeholders as PostgreSQL's `$1`, `$2`, …; a `?` inside a string literal or a quoted name stays. */
function numberedPlaceholders(sql: string): string {
  let n = 0;
  // A quoted literal or name is matched whole (and kept); a lone `?` becomes the next number.
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (token) => (token === "?" ? `$${++n}` : token));
}

/** Defines a statement (at module level: the text is worked out once); see {@link PreparedStatement}. */
export function preparedStatement<T = Record<string, unknown>>(sql: string): PreparedStatement<T> {
  const text = numberedPlaceholders(sql);
  // The name is per text: `pg` refuses one name for two texts on a connection.
  const name = `muster_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
  const onSqlite = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement>();
  const sqlite = (connection: BetterSqlite3.Database): BetterSqlite3.Statement => {
    let statement = onSqlite.get(connection);
    if (!statement) onSqlite.set(connection, (statement = connection.prepare(sql)));
    return statement;
  };
  const postgres = (db: Database, params: readonly unknown[]) => db.runPrepared!({ name, text, values: params });
  return {
    async all(db, params = []) {
      if (db.engine === "postgresql") return (await postgres(db, params)).rows as T[];
      return sqlite(db.sql).all(...sqliteParams(params)) as T[];
    },
    async run(db, params = []) {
      if (db.engine === "postgresql") return { changes: (await postgres(db, params)).changes };
      return { changes: sqlite(db.sql).run(...sqliteParams(params)).changes };
    },
  };
}
