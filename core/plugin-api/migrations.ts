/** The database handle a migration receives: run SQL statements in order. */
export interface MigrationDb {
  exec(sql: string): void;
}

/**
 * A schema change of one plugin. Migrations run in the plugins' dependency order and,
 * within a plugin, in array order; each runs in its own transaction and is recorded
 * under `<pluginId>:<name>`, so names must never be reused or reordered once shipped.
 */
export interface Migration {
  name: string;
  up: string | string[] | ((db: MigrationDb) => void);
  /**
   * The statements on PostgreSQL (team mode, `DATABASE_URL`), for a migration whose SQLite
   * statements the host cannot rewrite (a SQLite-only function, say). Without it, `up` runs on
   * PostgreSQL rewritten: camelCase names quoted, BLOB as BYTEA, AUTOINCREMENT as an identity,
   * the entity's boolean columns as BOOLEAN (docs/team.md); the same
   * rewriting applies to these statements, so they replace only what is SQLite-only.
   */
  postgresql?: string | string[];
}

/** Declares a migration. */
export function defineMigration(migration: Migration): Migration {
  return migration;
}
