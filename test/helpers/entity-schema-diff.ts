// Compares a plugin's entities with the tables its hand-written migrations create, through
// MikroORM's own schema comparator (what `schema:update` would change), and names every
// disagreement in words. Used by test/core/entities-match-migrations.test.ts.
import pino from "pino";
import { SchemaComparator, type EntitySchema } from "@mikro-orm/sqlite";
import type { PluginDefinition } from "@muster/plugin";
import { openDatabase } from "../../core/internal/database.ts";

/** What the comparator reports for a column: name, SQL type, nullability, primary key. */
interface ColumnInfo {
  name: string;
  type: string;
  nullable?: boolean;
  primary?: boolean;
  [key: string]: unknown;
}
interface IndexInfo {
  keyName: string;
  columnNames: string[];
  unique?: boolean;
}
type Named<T> = Record<string, T>;

const logger = pino({ level: "silent" });

/**
 * SQLite's type affinity of a declared column type (https://sqlite.org/datatype3.html,
 * 3.1): what decides how values are stored, so `TEXT` and `varchar(255)` agree.
 */
export function affinity(type: string): "INTEGER" | "TEXT" | "BLOB" | "REAL" | "NUMERIC" {
  const t = type.toUpperCase();
  if (t.includes("INT")) return "INTEGER";
  if (/CHAR|CLOB|TEXT/.test(t)) return "TEXT";
  if (t === "" || t.includes("BLOB")) return "BLOB";
  if (/REAL|FLOA|DOUB/.test(t)) return "REAL";
  return "NUMERIC";
}

/**
 * PostgreSQL's type, as far as it decides what a column holds: `text` and `varchar(255)` (what
 * MikroORM declares for a string property) both hold a string, `int4` and `integer` are one type.
 */
export function postgresTypeFamily(type: string): string {
  const t = type.toLowerCase().replace(/\(.*\)$/, "").trim();
  if (t === "text" || t === "varchar" || t === "character varying" || t === "char" || t === "character") return "text";
  if (t === "int" || t === "int4" || t === "integer" || t === "serial") return "integer";
  if (t === "int8" || t === "bigint" || t === "bigserial") return "bigint";
  if (t === "bool" || t === "boolean") return "boolean";
  if (t === "float8" || t === "double precision" || t === "double") return "double";
  return t;
}

const show = (value: unknown) => (value === undefined || value === null ? "none" : JSON.stringify(value));

/**
 * Every disagreement between `plugin`'s entities and the schema its migrations build on a
 * fresh database; empty when they agree. Compared: tables, column names, nullability,
 * primary keys, type affinity, defaults, enum checks, check constraints and indexes (by
 * columns and uniqueness; SQLite does not report an index's sort order).
 *
 * Two SQLite facts are not disagreements: a non-integer `PRIMARY KEY` column admits NULL
 * unless also declared NOT NULL (a SQLite legacy), so primary keys are compared as keys,
 * not for nullability; and a column's `UNIQUE` in a migration is an implicit
 * `sqlite_autoindex_*` index, which the comparator does not list, so an entity's unique
 * index matches an implicit unique index on the same columns.
 */
export async function entityMigrationMismatches(plugin: PluginDefinition, databaseUrl?: string): Promise<string[]> {
  const entities = (plugin.entities ?? []) as EntitySchema<any, any>[];
  // PostgreSQL (an empty database of the throwaway cluster, postgres-cluster.ts) or a fresh in-memory SQLite.
  const db = databaseUrl ? await (await import("../../core/internal/postgres-database.ts")).openPostgresDatabase({ url: databaseUrl, entities, logger }) : await openDatabase({ path: ":memory:", entities, logger });
  const sameType = db.engine === "sqlite" ? (a: string, b: string) => affinity(a) === affinity(b) : (a: string, b: string) => postgresTypeFamily(a) === postgresTypeFamily(b);
  const typeLabel = db.engine === "sqlite" ? affinity : postgresTypeFamily;
  try {
    await db.migrate([{ pluginId: plugin.id, migrations: plugin.migrations ?? [] }]);
    // The comparison's inputs come from a method the .d.ts marks private (MikroORM is pinned
    // at 7.2.1): the public getUpdateSchemaSQL() only returns SQL, which cannot say what differs.
    const generator = db.orm.schema as unknown as { prepareSchemaForComparison(options: object): Promise<{ fromSchema: any; toSchema: any }> };
    const { fromSchema, toSchema } = await generator.prepareSchemaForComparison({});
    // `any`: the comparator and the schemas are MikroORM types its .d.ts does not export for this use.
    const diff = new SchemaComparator(db.orm.em.getPlatform() as any).compare(fromSchema, toSchema);
    const entityOf = new Map((plugin.entities ?? []).map((e) => [e.meta.tableName ?? e.meta.className, e.meta.className]));
    const problems: string[] = [];

    for (const table of Object.keys(diff.newTables)) problems.push(`${table}: entity ${entityOf.get(table) ?? "?"} declares it, no migration creates it`);
    for (const table of Object.keys(diff.removedTables)) {
      if (!HOST_TABLES.has(table)) problems.push(`${table}: a migration creates it, no entity declares it`);
    }
    for (const [table, t] of Object.entries(diff.changedTables) as [string, any][]) {
      const implicitUnique = db.engine === "sqlite" ? implicitUniqueIndexes(db.sql, table) : new Set<string>();
      for (const c of Object.values(t.addedColumns as Named<ColumnInfo>)) problems.push(`${table}.${c.name}: the entity declares it, the migrations do not create it`);
      for (const c of Object.values(t.removedColumns as Named<ColumnInfo>)) problems.push(`${table}.${c.name}: the migrations create it, the entity does not declare it`);
      for (const [from, c] of Object.entries(t.renamedColumns as Named<ColumnInfo>)) problems.push(`${table}.${from}: the migrations name it ${from}, the entity ${c.name}`);
      for (const change of Object.values(t.changedColumns as Named<{ column: ColumnInfo; fromColumn: ColumnInfo; changedProperties: Set<string> }>)) {
        const { column: entity, fromColumn: migrated } = change;
        for (const property of change.changedProperties) {
          if (property === "nullable" && entity.primary && migrated.primary) continue;
          if (property === "type" && sameType(entity.type, migrated.type)) continue;
          const label = property === "type" ? (db.engine === "sqlite" ? "type affinity" : "type") : property;
          const [m, e] = property === "type" ? [typeLabel(migrated.type), typeLabel(entity.type)] : [migrated[property], entity[property]];
          problems.push(`${table}.${entity.name}: ${label} differs (migrations: ${show(m)}, entity: ${show(e)})`);
        }
      }
      for (const index of Object.values(t.addedIndexes as Named<IndexInfo>)) {
        if (index.unique && implicitUnique.has(index.columnNames.join(","))) continue;
        problems.push(`${table}: the entity declares ${describeIndex(index)}, the migrations do not create it`);
      }
      for (const index of Object.values(t.removedIndexes as Named<IndexInfo>)) problems.push(`${table}: the migrations create ${describeIndex(index)}, the entity does not declare it`);
      for (const index of Object.values(t.changedIndexes as Named<IndexInfo>)) problems.push(`${table}: ${describeIndex(index)} differs between the entity and the migrations`);
      for (const [from, index] of Object.entries(t.renamedIndexes as Named<IndexInfo>)) {
        // A column's UNIQUE is PostgreSQL's `<table>_<column>_key`, MikroORM's `..._unique`: one index, two names.
        if (db.engine === "postgresql" && index.unique && from === `${table.replace(/^public\./, "")}_${index.columnNames.join("_")}_key`) continue;
        problems.push(`${table}: index ${from} of the migrations is ${index.keyName} in the entity`);
      }
      for (const [kind, checks] of [["declares", t.addedChecks], ["differs on", t.changedChecks]] as const) {
        for (const check of Object.values(checks as Named<{ name: string; expression: unknown }>)) {
          // SQLite's boolean is INTEGER with `c IN (0, 1)`; on PostgreSQL the BOOLEAN type says it (postgres-dialect.ts).
          if (db.engine === "postgresql" && kind === "declares" && /^\w+ IN \(0, 1\)$/.test(String(check.expression))) continue;
          problems.push(`${table}: the entity ${kind} check ${check.name} (${String(check.expression)})`);
        }
      }
      for (const check of Object.values(t.removedChecks as Named<{ name: string; expression: unknown }>)) problems.push(`${table}: the migrations create check ${check.name} (${String(check.expression)}), the entity does not declare it`);
      for (const [kind, keys] of [["added", t.addedForeignKeys], ["changed", t.changedForeignKeys], ["removed", t.removedForeignKeys]] as const) {
        for (const name of Object.keys(keys ?? {})) problems.push(`${table}: foreign key ${name} ${kind} by the entity`);
      }
    }
    // PostgreSQL's comparator names tables with their schema.
    return problems.map((problem) => problem.replace(/^public\./, ""));
  } finally {
    await db.close();
  }
}

function describeIndex(index: IndexInfo): string {
  return `${index.unique ? "unique index" : "index"} ${index.keyName} (${index.columnNames.join(", ")})`;
}

/** Column lists ("a,b") of the implicit unique indexes SQLite made for UNIQUE constraints. */
function implicitUniqueIndexes(sql: import("better-sqlite3").Database, table: string): Set<string> {
  const found = new Set<string>();
  for (const index of sql.pragma(`index_list(${JSON.stringify(table)})`) as { name: string; unique: number; origin: string }[]) {
    if (index.unique !== 1 || index.origin !== "u") continue;
    found.add((sql.pragma(`index_info(${JSON.stringify(index.name)})`) as { name: string }[]).map((c) => c.name).join(","));
  }
  return found;
}

/** The host's own tables (postgres-database.ts creates them on PostgreSQL); no plugin declares them. */
const HOST_TABLES = new Set(["muster_migrations", "muster_instances", "muster_secrets", "muster_login_codes", "muster_rate_slots", "muster_gateway_leases", "muster_gateway_calls", "muster_gateway_events"]);
