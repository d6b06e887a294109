import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pino from "pino";
import { definePlugin, defineEntity, defineMigration, p, type Migration, type PluginDefinition } from "@muster/plugin";
import { createHost } from "../../core/host.ts";
import { removeHome } from "../helpers/start-test-host.ts";
import { migrate } from "../../core/internal/database.ts";
import { orderPlugins } from "../../core/internal/plugin-graph.ts";
import { tablePrefix } from "../../core/internal/plugin-tables.ts";
import { builtInPlugins } from "../../plugins/built-in.ts";

const t = suite("plugin table prefixes");
const logger = pino({ level: "silent" });

const fails = (run: () => unknown, pattern: RegExp) => {
  try {
    run();
  } catch (error) {
    assert.is((error as { code?: string }).code, "PLUGIN_TABLE_PREFIX", String(error));
    assert.match((error as Error).message, pattern);
    return;
  }
  assert.unreachable("expected PLUGIN_TABLE_PREFIX");
};

/** Runs `mine` as plugin release-notes' migrations on a database where plugin "work" already has a table. */
function migrateReleaseNotes(mine: Migration[]) {
  const sql = new Database(":memory:");
  migrate(sql, [{ pluginId: "work", migrations: [defineMigration({ name: "001", up: "CREATE TABLE work_tasks (id TEXT PRIMARY KEY)" })] }], logger);
  return { sql, run: () => migrate(sql, [{ pluginId: "work", migrations: [defineMigration({ name: "001", up: "" })] }, { pluginId: "release-notes", migrations: mine }], logger) };
}

const tableNames = (sql: Database.Database) => (sql.prepare("SELECT name FROM sqlite_master ORDER BY name").all() as { name: string }[]).map((r) => r.name);

t("the prefix is the plugin id with - turned into _, then _ (a valid SQL identifier)", () => {
  assert.is(tablePrefix("release-notes"), "release_notes_");
  assert.is(tablePrefix("work"), "work_");
  assert.match(tablePrefix("a-b-c"), /^[a-z_][a-z0-9_]*$/);
});

t("a migration may create, alter, index and drop its own prefixed tables (AUTOINCREMENT, UNIQUE, FTS included)", () => {
  const { sql, run } = migrateReleaseNotes([
    defineMigration({ name: "001", up: ["CREATE TABLE release_notes_entries (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT UNIQUE)", "CREATE INDEX release_notes_by_title ON release_notes_entries (title)"] }),
    defineMigration({ name: "002", up: (db) => db.exec("ALTER TABLE release_notes_entries ADD COLUMN body TEXT") }),
    defineMigration({ name: "003", up: ["CREATE TABLE release_notes_tmp (x)", "DROP TABLE release_notes_tmp"] }),
  ]);
  assert.equal(run(), ["release-notes:001", "release-notes:002", "release-notes:003"]);
  assert.ok(tableNames(sql).includes("release_notes_entries"));
});

for (const [label, up, pattern] of [
  ["creating a table outside the prefix", "CREATE TABLE entries (id TEXT)", /migration release-notes:bad creates table entries, which does not carry its table prefix "release_notes_"/],
  ["the old dashed prefix", 'CREATE TABLE "release-notes_entries" (id TEXT)', /creates table release-notes_entries/],
  ["altering another plugin's table", "ALTER TABLE work_tasks ADD COLUMN hijacked TEXT", /alters table work_tasks/],
  ["dropping another plugin's table", "DROP TABLE work_tasks", /drops table work_tasks/],
  ["an index on another plugin's table", "CREATE INDEX release_notes_spy ON work_tasks (id)", /creates index release_notes_spy on work_tasks/],
  ["an unprefixed index name", "CREATE TABLE release_notes_x (id TEXT); CREATE INDEX by_id ON release_notes_x (id)", /creates index by_id/],
] as const) {
  t(`refused, rolled back and not recorded: ${label}`, () => {
    const { sql, run } = migrateReleaseNotes([defineMigration({ name: "bad", up })]);
    const before = tableNames(sql);
    fails(run, pattern);
    assert.equal(tableNames(sql), before);
    assert.equal(sql.prepare("SELECT id FROM muster_migrations WHERE plugin = 'release-notes'").all(), []);
  });
}

const entityPlugin = (tableName?: string): PluginDefinition => {
  const Entry = defineEntity({ name: "Entry", ...(tableName ? { tableName } : {}), properties: { id: p.integer().primary() } });
  return definePlugin({ id: "release-notes", version: "1.0.0", host: "^1.0.0", entities: [Entry] });
};

t("entities must map to a prefixed table, declared (not left to a naming strategy)", () => {
  assert.is(orderPlugins([entityPlugin("release_notes_entries")], "1.0.0")[0]!.id, "release-notes");
  fails(() => orderPlugins([entityPlugin("entries")], "1.0.0"), /entity Entry maps to table entries, which does not carry its table prefix "release_notes_"/);
  fails(() => orderPlugins([entityPlugin("release-notes_entries")], "1.0.0"), /release-notes_entries/);
  fails(() => orderPlugins([entityPlugin()], "1.0.0"), /maps to table \(none declared\)/);
});

t("every built-in plugin complies: entities and migrations (on a fresh database)", () => {
  const ordered = orderPlugins([...builtInPlugins], "1.0.0");
  const sql = new Database(":memory:");
  const applied = migrate(sql, ordered.map((plugin) => ({ pluginId: plugin.id, migrations: plugin.migrations ?? [] })), logger);
  assert.ok(applied.length > 5);
});

t("the host refuses to start (before it listens) with a plugin that breaks the rule", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-prefix-"));
  const plugin = definePlugin({ id: "release-notes", version: "1.0.0", host: "^1.0.0", migrations: [defineMigration({ name: "001", up: "CREATE TABLE notes (id TEXT)" })] });
  const host = createHost({ env: {}, plugins: [plugin], config: { port: 0, home, logLevel: "silent" } });
  try {
    await host.start();
    assert.unreachable("started");
  } catch (error) {
    assert.is((error as { code?: string }).code, "PLUGIN_TABLE_PREFIX");
  } finally {
    await host.stop();
    removeHome(home);
  }
});

t.run();
