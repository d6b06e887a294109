// The table rule: a plugin owns the tables (and indexes, triggers, views) whose names start
// with its prefix, the plugin id with `-` turned into `_`, then `_` (`release-notes` ->
// `release_notes_`), a valid unquoted SQL identifier. The host enforces it before it listens:
// entities must declare a prefixed `tableName`, and each migration may create, alter or drop
// only prefixed objects (checked by diffing sqlite_master around it, inside its transaction,
// so a refused migration leaves nothing behind and no SQL needs parsing).
import type BetterSqlite3 from "better-sqlite3";
import type { PluginDefinition } from "../plugin-api/define-plugin.ts";
import { startErrors } from "./start-errors.ts";

/** `release-notes` -> `release_notes_`. */
export function tablePrefix(pluginId: string): string {
  return `${pluginId.replaceAll("-", "_")}_`;
}

/** Refuses an entity whose table does not carry the plugin's prefix (or that leaves it to a naming strategy). */
export function checkEntityTables(plugin: PluginDefinition): void {
  const prefix = tablePrefix(plugin.id);
  for (const entity of plugin.entities ?? []) {
    const meta = (entity as { meta?: { className?: string; tableName?: string } }).meta;
    const table = meta?.tableName;
    if (typeof table !== "string" || !table.startsWith(prefix)) {
      throw startErrors.PLUGIN_TABLE_PREFIX({ id: plugin.id, what: `entity ${meta?.className ?? "?"} maps to table`, name: table ?? "(none declared)", prefix });
    }
  }
}

interface SchemaObject { type: string; table: string; sql: string | null }

/** The schema as SQLite records it: every table, index, trigger and view by name. */
export function schemaObjects(sql: BetterSqlite3.Database): Map<string, SchemaObject> {
  const rows = sql.prepare("SELECT type, name, tbl_name AS \"table\", sql FROM sqlite_master").all() as ({ name: string } & SchemaObject)[];
  return new Map(rows.map((r) => [r.name, { type: r.type, table: r.table, sql: r.sql }]));
}

/**
 * Refuses a migration of `pluginId` that created, altered or dropped a schema object outside
 * its prefix (`before`/`after`: {@link schemaObjects} around the migration). An index counts
 * by its name and by its table; SQLite's own automatic indexes by their table only, its own
 * tables not at all.
 */
export function checkMigrationTables(pluginId: string, migration: string, before: Map<string, SchemaObject>, after: Map<string, SchemaObject>): void {
  const prefix = tablePrefix(pluginId);
  const touched = new Map<string, SchemaObject>();
  for (const [name, object] of after) if (before.get(name)?.sql !== object.sql || !before.has(name)) touched.set(name, object);
  for (const [name, object] of before) if (!after.has(name)) touched.set(name, object);
  for (const [name, object] of touched) {
    // sqlite_sequence and the like belong to SQLite (AUTOINCREMENT creates the first on its own).
    if (name.startsWith("sqlite_") && object.type === "table") continue;
    const names = name.startsWith("sqlite_") ? [object.table] : [name, object.table];
    const outside = names.find((n) => !n.startsWith(prefix));
    if (outside !== undefined) {
      const verb = !after.has(name) ? "drops" : before.has(name) ? "alters" : "creates";
      throw startErrors.PLUGIN_TABLE_PREFIX({ id: pluginId, what: `migration ${migration} ${verb} ${object.type}`, name: outside === name ? name : `${name} on ${outside}`, prefix });
    }
  }
}
