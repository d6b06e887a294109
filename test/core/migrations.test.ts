import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { createHost } from "../../core/host.ts";
import { definePlugin, defineMigration, MusterError, type Migration } from "@muster/plugin";

const t = suite("migrations");

const withMigrations = (migrations: Migration[]) => definePlugin({ id: "notes", version: "1.0.0", host: "^1.0.0", migrations });
const first = defineMigration({ name: "001-notes", up: "CREATE TABLE notes_notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)" });

async function boot(home: string, migrations: Migration[]) {
  const host = createHost({ env: {}, plugins: [withMigrations(migrations)], config: { port: 0, home, logLevel: "silent" } });
  try {
    await host.start();
    return { host, error: null };
  } catch (error) {
    await host.stop();
    return { host, error: error as MusterError };
  } 
}

// The schema and the migration ledger are what these tests are about; no route shows them.
const tables = (home: string) => {
  const db = new Database(join(home, "muster.db"), { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
};

t("migrations apply once, in order, and are recorded", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-mig-"));
  const second = defineMigration({ name: "002-index", up: ["CREATE INDEX notes_body ON notes_notes (body)"] });
  let run = await boot(home, [first, second]);
  assert.is(run.error, null);
  await run.host.stop();
  run = await boot(home, [first, second]);
  assert.is(run.error, null, "re-running applied migrations is a no-op");
  await run.host.stop();
  const db = new Database(join(home, "muster.db"), { readonly: true });
  const ids = (db.prepare("SELECT id FROM muster_migrations ORDER BY rowid").all() as { id: string }[]).map((r) => r.id);
  db.close();
  assert.equal(ids, ["notes:001-notes", "notes:002-index"]);
});

t("a failing migration is rolled back whole and the host refuses to start, every time", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-mig-"));
  const broken = defineMigration({
    name: "002-broken",
    up: ["CREATE TABLE notes_tags (id TEXT PRIMARY KEY)", "INSERT INTO notes_missing VALUES (1)"],
  });
  for (let attempt = 0; attempt < 2; attempt++) {
    const run = await boot(home, [first, broken]);
    assert.instance(run.error, MusterError);
    assert.is(run.error!.code, "MIGRATION_FAILED");
    const names = tables(home);
    assert.ok(names.includes("notes_notes"), "earlier migration kept");
    assert.not.ok(names.includes("notes_tags"), "half of the failed migration rolled back");
  }
});

t("a database with a migration the plugin does not ship is refused", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-mig-"));
  const second = defineMigration({ name: "002-x", up: "CREATE TABLE notes_x (id TEXT)" });
  const run = await boot(home, [first, second]);
  await run.host.stop();
  const older = await boot(home, [first]);
  assert.instance(older.error, MusterError);
  assert.is(older.error!.code, "MIGRATION_UNKNOWN_APPLIED");
});

t("a process killed in the middle of a migration leaves nothing of it; the next start applies it whole", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-mig-"));
  const run = await boot(home, [first]);
  await run.host.stop();
  // What a crash mid-migration leaves: an open transaction that never committed.
  const db = new Database(join(home, "muster.db"));
  db.exec("BEGIN");
  db.exec("CREATE TABLE notes_half (id TEXT)");
  db.close(); // closing without COMMIT rolls back, as SQLite does after a kill
  assert.not.ok(tables(home).includes("notes_half"));
  const second = defineMigration({ name: "002-half", up: "CREATE TABLE notes_half (id TEXT)" });
  const again = await boot(home, [first, second]);
  assert.is(again.error, null);
  await again.host.stop();
  assert.ok(tables(home).includes("notes_half"));
});

t.run();
