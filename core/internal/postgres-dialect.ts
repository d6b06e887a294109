// Plugins write their migrations once, in the SQLite dialect they have always used (plain
// CREATE TABLE / CREATE INDEX / ALTER TABLE ADD COLUMN / UPDATE with TEXT, INTEGER and BLOB
// columns). On PostgreSQL each statement is rewritten by the few rules below, no parser
// involved; what they cannot express a migration says itself in `postgresql` (migrations.ts).
// The entity/migration agreement test runs on both engines, so a rule that produced the wrong
// column shows up there, column by column.

/** Columns the plugin's entities declare boolean, by table: SQLite stores them as INTEGER 0/1. */
export type BooleanColumns = ReadonlyMap<string, ReadonlySet<string>>;

// A camelCase name: PostgreSQL folds unquoted names to lower case, MikroORM quotes them, so
// `taskId` must be created as "taskId". Lower-case names need no quotes (and get none).
const CAMEL_CASE = /(?<![\w"$])([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)(?![\w"])/g;

/** Applies `rewrite` to the parts of `sql` outside single-quoted string literals. */
function outsideLiterals(sql: string, rewrite: (code: string) => string): string {
  return sql.split(/('(?:[^']|'')*')/).map((part, i) => (i % 2 === 1 ? part : rewrite(part))).join("");
}

/** The table a CREATE TABLE / ALTER TABLE statement is about, if it is one. */
function tableOf(sql: string): string | undefined {
  return /^\s*(?:CREATE\s+TABLE(?:\s+IF\s+NOT\s+EXISTS)?|ALTER\s+TABLE)\s+"?(\w+)"?/i.exec(sql)?.[1];
}

/**
 * One SQLite migration statement in PostgreSQL's dialect:
 * - camelCase identifiers quoted;
 * - `BLOB` is `BYTEA`;
 * - `INTEGER PRIMARY KEY AUTOINCREMENT` is `SERIAL PRIMARY KEY` (what MikroORM declares for an autoincrement key);
 * - a column the entity declares boolean is `BOOLEAN` (SQLite's `INTEGER` 0/1: its
 *   `DEFAULT 0/1` becomes `false/true`, its `CHECK (c IN (0, 1))` goes, the type says it).
 */
export function toPostgres(sql: string, booleans: BooleanColumns = new Map()): string {
  const table = tableOf(sql);
  const flags = table ? booleans.get(table) : undefined;
  return outsideLiterals(sql, (code) => {
    let out = code;
    for (const column of flags ?? []) {
      // `gated INTEGER NOT NULL DEFAULT 0 CHECK (gated IN (0, 1))`: the check first (its list has a comma), then the type.
      out = out
        .replace(new RegExp(`\\s*CHECK\\s*\\(\\s*"?${column}"?\\s+IN\\s*\\(\\s*0\\s*,\\s*1\\s*\\)\\s*\\)`, "gi"), "")
        .replace(new RegExp(`(^|[\\s(,])("?${column}"?)\\s+INTEGER\\b(\\s+NOT\\s+NULL)?(?:\\s+DEFAULT\\s+([01])\\b)?`, "gi"), (_, before: string, name: string, notNull = "", value?: string) =>
          `${before}${name} BOOLEAN${notNull}${value === undefined ? "" : ` DEFAULT ${value === "1"}`}`);
    }
    return out
      .replace(/\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b/gi, "SERIAL PRIMARY KEY")
      .replace(/\bBLOB\b/gi, "BYTEA")
      .replace(CAMEL_CASE, '"$1"');
  });
}
