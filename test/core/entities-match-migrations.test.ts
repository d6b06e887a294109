// The entity is the one declaration of a table; migrations stay hand-written SQL. This test
// keeps the two from drifting: for every built-in plugin with migrations, a fresh database
// migrated by them must hold exactly the tables its entities declare.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { defineEntity, defineMigration, definePlugin, p } from "@muster/plugin";
import { builtInPlugins } from "../../plugins/built-in.ts";
import { affinity, entityMigrationMismatches } from "../helpers/entity-schema-diff.ts";
import { postgresUnavailable, startPostgres, type PostgresCluster } from "../helpers/postgres-cluster.ts";

const t = suite("entities match migrations");

for (const plugin of builtInPlugins.filter((p) => (p.migrations ?? []).length > 0 || (p.entities ?? []).length > 0)) {
  t(`${plugin.id}: every table its migrations create is declared by an entity, column for column`, async () => {
    const problems = await entityMigrationMismatches(plugin);
    assert.equal(problems, [], `${plugin.id}: entities and migrations disagree:\n  ${problems.join("\n  ")}\n`);
  });
}

const Item = defineEntity({
  name: "Item",
  tableName: "drift_items",
  properties: {
    id: p.string().primary(),
    title: p.string(),
    note: p.string().nullable(),
    /** Not created by the fixture's migration. */
    extra: p.integer(),
  },
});
const drifted = definePlugin({
  id: "drift",
  version: "1.0.0",
  host: "^1.0.0",
  entities: [Item],
  migrations: [
    defineMigration({
      name: "001",
      up: [
        // `note` NOT NULL where the entity says nullable, `title` an INTEGER, `orphan` undeclared.
        "CREATE TABLE drift_items (id TEXT PRIMARY KEY, title INTEGER NOT NULL, note TEXT NOT NULL, orphan TEXT)",
        "CREATE TABLE drift_unmapped (id TEXT PRIMARY KEY)",
        "CREATE INDEX drift_items_by_title ON drift_items (title)",
      ],
    }),
  ],
});

t("a fixture whose entity and migration disagree fails, each disagreement named", async () => {
  const problems = await entityMigrationMismatches(drifted);
  const expected = [
    "drift_items.extra: the entity declares it, the migrations do not create it",
    "drift_items.orphan: the migrations create it, the entity does not declare it",
    "drift_items.note: nullable differs (migrations: false, entity: true)",
    "drift_items.title: type affinity differs (migrations: \"INTEGER\", entity: \"TEXT\")",
    "drift_unmapped: a migration creates it, no entity declares it",
    "drift_items: the migrations create index drift_items_by_title (title), the entity does not declare it",
  ];
  for (const line of expected) assert.ok(problems.includes(line), `missing: ${line}\ngot:\n  ${problems.join("\n  ")}`);
  assert.is(problems.length, expected.length, problems.join("\n"));
});

t("an entity column missing from its migration is caught (the one-column case)", async () => {
  const Note = defineEntity({ name: "Note", tableName: "drift_notes", properties: { id: p.string().primary(), body: p.text(), pinned: p.boolean() } });
  const plugin = definePlugin({ id: "drift", version: "1.0.0", host: "^1.0.0", entities: [Note], migrations: [defineMigration({ name: "001", up: "CREATE TABLE drift_notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)" })] });
  assert.equal(await entityMigrationMismatches(plugin), ["drift_notes.pinned: the entity declares it, the migrations do not create it"]);
});

// The same agreement on PostgreSQL (team mode): each plugin's migrations, rewritten to its
// dialect (core/internal/postgres-dialect.ts), on an empty database of a throwaway cluster.
const pgUnavailable = postgresUnavailable();
if (pgUnavailable) console.log(`entities match migrations on PostgreSQL: skipped, ${pgUnavailable}`);
const onPostgres = pgUnavailable ? t.skip : t;
let cluster: PostgresCluster | undefined;
t.after(async () => {
  await cluster?.stop();
});
for (const plugin of builtInPlugins.filter((p) => (p.migrations ?? []).length > 0 || (p.entities ?? []).length > 0)) {
  onPostgres(`${plugin.id} on PostgreSQL: its migrations create exactly the tables its entities declare`, async () => {
    cluster ??= await startPostgres();
    const problems = await entityMigrationMismatches(plugin, await cluster.createDatabase());
    assert.equal(problems, [], `${plugin.id} on PostgreSQL: entities and migrations disagree:\n  ${problems.join("\n  ")}\n`);
  });
}

onPostgres("on PostgreSQL too, a fixture whose entity and migration disagree fails, each disagreement named", async () => {
  cluster ??= await startPostgres();
  const problems = await entityMigrationMismatches(drifted, await cluster.createDatabase());
  for (const line of ["drift_items.extra: the entity declares it, the migrations do not create it", "drift_items.note: nullable differs (migrations: false, entity: true)", 'drift_items.title: type differs (migrations: "integer", entity: "text")', "drift_unmapped: a migration creates it, no entity declares it"]) {
    assert.ok(problems.includes(line), `missing: ${line}\ngot:\n  ${problems.join("\n  ")}`);
  }
});

t("SQLite's type affinity decides whether types agree", () => {
  assert.is(affinity("varchar(255)"), "TEXT");
  assert.is(affinity("TEXT"), "TEXT");
  assert.is(affinity("bigint"), "INTEGER");
  assert.is(affinity("integer"), "INTEGER");
  assert.is(affinity("blob"), "BLOB");
  assert.is(affinity("double"), "REAL");
  assert.is(affinity("numeric(10,2)"), "NUMERIC");
});

t.run();
