// `muster backup` / `muster restore` in team mode (issue 25): with DATABASE_URL the database
// goes through pg_dump (custom format) and pg_restore (one transaction), run as the real CLI
// on a real, throwaway PostgreSQL with the settings plugin (which runs fully on PostgreSQL).
// A backup of the other engine is refused, a missing pg_dump is named with its package, a
// failed restore leaves the database as it was, and the password never shows. Skipped, with
// the reason printed, where PostgreSQL's binaries are missing.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { settingsPlugin } from "../../plugins/settings/index.ts";
import { findPostgresTool } from "../../core/internal/postgres-tools.ts";
import { removeHome, startTestHost, withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { postgresUnavailable, psql, startPostgres, type PostgresCluster } from "../helpers/postgres-cluster.ts";
import { runMuster } from "../cli/run-muster.ts";

const t = suite("muster backup and restore on PostgreSQL");
const unavailable = postgresUnavailable() ?? (findPostgresTool("pg_dump") && findPostgresTool("pg_restore") ? null : "pg_dump/pg_restore are not installed: apt-get install postgresql-client");
if (unavailable) console.log(`backup and restore on PostgreSQL: skipped, ${unavailable}`);
const test = unavailable ? t.skip : t;

let cluster: PostgresCluster | undefined;
t.after(async () => {
  await cluster?.stop();
});

/** The password in every URL below: the cluster trusts 127.0.0.1, so any password connects, and none may be printed. */
const PASSWORD = "s3cret-Pa55word";

/** A new database on the cluster, its URL carrying {@link PASSWORD}. */
async function database(): Promise<string> {
  const url = new URL(await (cluster ??= await startPostgres()).createDatabase());
  url.password = PASSWORD;
  return url.toString();
}

/** Runs `fn` with a scratch directory (always removed) and a new database's URL. */
async function inScratch(fn: (dir: string, url: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "muster-pg-backup-"));
  try {
    await fn(dir, await database());
  } finally {
    removeHome(dir);
  }
}
/** A host on `url` with its home at `home`, stopped after `fn`; the home stays. */
async function onHost(home: string, url: string, fn: (h: TestHost) => Promise<void>): Promise<void> {
  const h = await startTestHost({ home, plugins: [settingsPlugin], env: { DATABASE_URL: url } });
  try {
    await fn(h);
  } finally {
    await h.stop();
  }
}

const backup = (home: string, url: string, archive: string) => runMuster(["backup", archive], { MUSTER_HOME: home, DATABASE_URL: url });

async function addGoal(h: TestHost, title: string) {
  assert.is((await h.json("/api/autopilot/goals", { method: "POST", body: { title } })).status, 201);
}

/** A refused restore left the home's marker as it was, and no temporary or moved-aside directory. */
function assertUntouched(dir: string, home: string) {
  assert.is(readFileSync(join(home, "marker"), "utf8"), "untouched");
  assert.equal(readdirSync(dir).filter((n) => n.includes("before-restore") || n.includes(".restore-")), []);
}

async function goalTitles(h: TestHost): Promise<string[]> {
  const goals = await h.json<{ goals: { title: string }[] }>("/api/autopilot/goals");
  assert.is(goals.status, 200);
  return goals.body.goals.map((g) => g.title).sort();
}

async function theme(h: TestHost): Promise<unknown> {
  return (await h.json<{ settings: Record<string, unknown> }>("/api/settings")).body.settings.theme;
}

function assertNoPassword(...texts: string[]) {
  for (const text of texts) assert.not.ok(text.includes(PASSWORD), `the password is printed: ${text}`);
}

test("an online backup restores the database and the home: the data written after it is gone, and a start serves the original", () =>
  inScratch(async (dir, url) => {
    const home = join(dir, "home");
    const archive = join(dir, "team.tar.gz");
    await onHost(home, url, async (h) => {
      await addGoal(h, "Backed up");
      assert.is((await h.json("/api/settings/theme", { method: "PUT", body: { value: "dark" } })).status, 200);
      writeFileSync(join(home, "notes.txt"), "in the home");
      // While the server runs: pg_dump reads one snapshot.
      const run = await backup(home, url, archive);
      assert.is(run.status, 0, run.stderr);
      assert.is(run.stdout.trim(), archive);
      assert.match(run.stderr, /PostgreSQL database/);
      assertNoPassword(run.stdout, run.stderr);
      const members = execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).split("\n");
      assert.ok(members.includes("./muster.pgdump") && members.includes("./home/notes.txt"), members.join(" "));
      assert.not.ok(members.some((m) => /muster\.db|session-token|muster\.lock/.test(m)), members.join(" "));
      const manifest = JSON.parse(execFileSync("tar", ["-xzOf", archive, "./muster-backup.json"], { encoding: "utf8" }));
      assert.is(manifest.engine, "postgresql");

      // Changed and added after the backup.
      assert.is((await h.json("/api/settings/theme", { method: "PUT", body: { value: "light" } })).status, 200);
      await addGoal(h, "After the backup");
      writeFileSync(join(home, "notes.txt"), "changed");

      // The instance lock rule holds on PostgreSQL too.
      const refused = await runMuster(["restore", archive], { MUSTER_HOME: home, DATABASE_URL: url });
      assert.is(refused.status, 1);
      assert.match(refused.stderr, /^muster restore: RESTORE_SERVER_RUNNING: /);
      assert.equal(await goalTitles(h), ["After the backup", "Backed up"], "the running server's data is untouched");
    });

    const restore = await runMuster(["restore", archive], { MUSTER_HOME: home, DATABASE_URL: url });
    assert.is(restore.status, 0, restore.stderr);
    assertNoPassword(restore.stdout, restore.stderr);
    assert.is(readFileSync(join(home, "notes.txt"), "utf8"), "in the home", "the home's files come back");
    await onHost(home, url, async (again) => {
      assert.equal(await goalTitles(again), ["Backed up"]);
      assert.is(await theme(again), "dark");
    });
  }));

test("a backup of the other engine is refused with RESTORE_ENGINE_MISMATCH, home and database unchanged", () =>
  inScratch(async (dir, url) => {
    const sqliteArchive = join(dir, "sqlite.tar.gz");
    await withTestHost({ plugins: [settingsPlugin] }, async (h) => {
      await addGoal(h, "On SQLite");
      assert.is((await runMuster(["backup", sqliteArchive], { MUSTER_HOME: h.home })).status, 0);
    });
    const home = join(dir, "team-home");
    const pgArchive = join(dir, "pg.tar.gz");
    await onHost(home, url, async (h) => {
      await addGoal(h, "On PostgreSQL");
      assert.is((await backup(home, url, pgArchive)).status, 0);
    });
    writeFileSync(join(home, "marker"), "untouched");

    const intoPostgres = await runMuster(["restore", sqliteArchive], { MUSTER_HOME: home, DATABASE_URL: url });
    assert.is(intoPostgres.status, 1, intoPostgres.stderr);
    assert.match(intoPostgres.stderr, /^muster restore: RESTORE_ENGINE_MISMATCH: .*a backup of a SQLite database and this deployment's database is PostgreSQL/);
    assertNoPassword(intoPostgres.stderr);
    assertUntouched(dir, home);

    const intoSqlite = await runMuster(["restore", pgArchive], { MUSTER_HOME: join(dir, "sqlite-home") });
    assert.is(intoSqlite.status, 1, intoSqlite.stderr);
    assert.match(intoSqlite.stderr, /^muster restore: RESTORE_ENGINE_MISMATCH: .*a backup of a PostgreSQL database and this deployment's database is SQLite/);

    await onHost(home, url, async (again) => assert.equal(await goalTitles(again), ["On PostgreSQL"]));
  }));

test("a restore that fails in PostgreSQL is rolled back: RESTORE_DATABASE_FAILED, the database and the home as they were", () =>
  inScratch(async (dir, url) => {
    const home = join(dir, "home");
    const archive = join(dir, "b.tar.gz");
    await onHost(home, url, async (h) => {
      await addGoal(h, "In the backup");
      assert.is((await backup(home, url, archive)).status, 0);
      await addGoal(h, "Only in the database");
    });
    // An object the backup does not know depends on one of its tables: pg_restore's
    // `DROP TABLE IF EXISTS` (after it has already dropped others) fails on it.
    psql(url, `CREATE VIEW report_goals AS SELECT title FROM settings_autopilot_goals`);
    writeFileSync(join(home, "marker"), "untouched");

    const run = await runMuster(["restore", archive], { MUSTER_HOME: home, DATABASE_URL: url });
    assert.is(run.status, 1, run.stderr);
    assert.match(run.stderr, /^muster restore: RESTORE_DATABASE_FAILED: pg_restore failed, in one transaction that was rolled back/);
    assert.match(run.stderr, /report_goals/, "pg_restore's own words are in the message");
    assertNoPassword(run.stdout, run.stderr);
    assertUntouched(dir, home);
    await onHost(home, url, async (again) => {
      assert.equal(await goalTitles(again), ["In the backup", "Only in the database"], "nothing of the failed restore is left");
    });
  }));

test("pg_dump and pg_restore missing: POSTGRES_CLIENT_MISSING naming postgresql-client, nothing written or changed", () =>
  inScratch(async (dir, url) => {
    const empty = join(dir, "no-postgres-here");
    mkdirSync(empty);
    const home = join(dir, "home");
    mkdirSync(home);
    writeFileSync(join(home, "marker"), "untouched");
    const env = { MUSTER_HOME: home, DATABASE_URL: url, POSTGRES_BIN_DIR: empty };
    const dump = await runMuster(["backup", join(dir, "x.tar.gz")], env);
    assert.is(dump.status, 1, dump.stderr);
    assert.match(dump.stderr, /^muster backup: POSTGRES_CLIENT_MISSING: pg_dump was not found in POSTGRES_BIN_DIR .*apt-get install postgresql-client/);
    assertNoPassword(dump.stderr);
    assert.not.ok(existsSync(join(dir, "x.tar.gz")));

    // A real backup to restore, then the restore without pg_restore.
    const archive = join(dir, "b.tar.gz");
    assert.is((await backup(home, url, archive)).status, 0);
    const restore = await runMuster(["restore", archive], env);
    assert.is(restore.status, 1, restore.stderr);
    assert.match(restore.stderr, /^muster restore: POSTGRES_CLIENT_MISSING: pg_restore was not found/);
    assert.is(readFileSync(join(home, "marker"), "utf8"), "untouched");
    assert.equal(readdirSync(dir).sort(), ["b.tar.gz", "home", "no-postgres-here"], "no partial file or moved-aside home");
  }));

test("POSTGRES_BIN_DIR's programs run with the URL but never the password on their command line", () =>
  inScratch(async (dir, url) => {
    const home = join(dir, "home");
    mkdirSync(home);
    // Each program of the chosen directory writes its command line down, then runs the real one.
    const bin = join(dir, "bin");
    mkdirSync(bin);
    const log = join(dir, "argv.log");
    for (const tool of ["pg_dump", "pg_restore"]) {
      writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> '${log}'\nexec '${findPostgresTool(tool)}' "$@"\n`, { mode: 0o755 });
    }
    const env = { MUSTER_HOME: home, DATABASE_URL: url, POSTGRES_BIN_DIR: bin };
    const archive = join(dir, "b.tar.gz");
    const dumped = await runMuster(["backup", archive], env);
    assert.is(dumped.status, 0, dumped.stderr);
    const restored = await runMuster(["restore", archive], env);
    assert.is(restored.status, 0, restored.stderr);
    const argv = readFileSync(log, "utf8");
    assert.match(argv, /^pg_dump --format=custom .*--dbname=postgres:\/\/postgres@127\.0\.0\.1:\d+\/muster_/m);
    assert.match(argv, /^pg_restore --clean --if-exists --single-transaction --no-owner /m);
    assertNoPassword(argv, dumped.stderr, restored.stdout);
  }));

test("without pg_dump on PATH, Debian's /usr/lib/postgresql/<version>/bin is searched", async () => {
  const debian = existsSync("/usr/lib/postgresql") && readdirSync("/usr/lib/postgresql").some((v) => existsSync(join("/usr/lib/postgresql", v, "bin", "pg_dump")));
  if (!debian) {
    console.log("backup on PostgreSQL: Debian's /usr/lib/postgresql/<version>/bin has no pg_dump here; its search is not exercised");
    return;
  }
  await inScratch(async (dir, url) => {
    const home = join(dir, "home");
    mkdirSync(home);
    // Only node's own directory on PATH: no pg_dump, no tar (so the directory form).
    const run = await runMuster(["backup", join(dir, "copy")], { MUSTER_HOME: home, DATABASE_URL: url, PATH: dirname(process.execPath) });
    assert.is(run.status, 0, run.stderr);
    assert.ok(existsSync(join(dir, "copy", "muster.pgdump")));
  });
});

test("a pg_dump that fails says why in its own words (BACKUP_FAILED), without the password, and writes nothing", () =>
  inScratch(async (dir, database) => {
    const url = new URL(database);
    url.pathname = "/no_such_database";
    const home = join(dir, "home");
    mkdirSync(home);
    const run = await runMuster(["backup", join(dir, "x.tar.gz")], { MUSTER_HOME: home, DATABASE_URL: url.toString() });
    assert.is(run.status, 1, run.stderr);
    assert.match(run.stderr, /^muster backup: BACKUP_FAILED: .*pg_dump of postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/no_such_database failed: .*database "no_such_database" does not exist/s);
    assertNoPassword(run.stderr);
    assert.equal(readdirSync(dir), ["home"], "no partial file is left");
  }));

t.run();
