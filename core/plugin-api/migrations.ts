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
}

/** Declares a migration. */
export function defineMigration(migration: Migration): Migration {
  return migration;
}
