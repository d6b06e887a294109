// `muster backup` / `muster restore` (issue 16 item 2; bad-input catalogue 72): an online
// backup taken while the server writes passes SQLite's integrity check, a restore of it
// serves exactly the rows the backup holds, a restore refuses a running server, and every
// bad archive is refused with MUSTER_HOME left as it was.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { removeHome, startTestHost, withTestHost } from "../helpers/start-test-host.ts";
import { ROOT, runMuster } from "./run-muster.ts";

const t = suite("muster backup and restore");

const scratch = () => mkdtempSync(join(tmpdir(), "muster-backup-"));

/** Rows in a backup's or a freshly restored home's database file, read before any server opens it (what the archive holds). */
function taskRows(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM work_tasks").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** A home to restore into, with a marker file that must survive every refused restore. */
function markedHome(dir: string): string {
  const home = join(dir, "home");
  mkdirSync(home);
  writeFileSync(join(home, "marker"), "untouched");
  return home;
}

function assertUntouched(dir: string, home: string) {
  assert.is(readFileSync(join(home, "marker"), "utf8"), "untouched");
  assert.equal(readdirSync(home), ["marker"], "nothing was added to the home");
  assert.equal(readdirSync(dir).filter((name) => name.includes(".restore-") || name.includes("before-restore")), [], "no temporary or moved-aside directory is left");
}

t("an online backup taken during writes restores to a home that starts and serves exactly its rows", async () => {
  const dir = scratch();
  try {
    const archive = join(dir, "backup.tar.gz");
    await withTestHost(async (h) => {
      for (let i = 0; i < 30; i++) assert.is((await h.request("/api/tasks", { method: "POST", body: { title: `before ${i}` } })).status, 201);
      writeFileSync(join(h.home, "muster.config.json"), `${JSON.stringify({ config: {} })}\n`);
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) if ((await h.request("/api/tasks", { method: "POST", body: { title: `during ${written}` } })).status === 201) written++;
      })();
      const run = await runMuster(["backup", archive], { MUSTER_HOME: h.home });
      writing = false;
      await writer;
      assert.is(run.status, 0, run.stderr);
      assert.is(run.stdout.trim(), archive);
      assert.is(statSync(archive).mode & 0o777, 0o600, "only the owner reads a backup");
      assert.ok(written > 0, "the server kept writing during the backup");
      const members = execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).split("\n");
      assert.ok(members.includes("./muster-backup.json") && members.includes("./muster.db") && members.includes("./home/muster.config.json"), members.join(" "));
      assert.not.ok(members.some((m) => /session-token|muster\.lock|muster\.db-(wal|shm)/.test(m)), "never the token, the lock or the live database files");
    });

    const restored = join(dir, "restored-home");
    const run = await runMuster(["restore", archive], { MUSTER_HOME: restored });
    assert.is(run.status, 0, run.stderr);
    // The restored file itself, before a server opens it: SQLite's own integrity check.
    const db = new Database(join(restored, "muster.db"), { readonly: true });
    assert.equal(db.pragma("integrity_check"), [{ integrity_check: "ok" }]);
    db.close();
    const rows = taskRows(join(restored, "muster.db"));
    assert.ok(rows >= 30, `${rows} rows`);
    assert.ok(existsSync(join(restored, "muster.config.json")), "the home's files come back");
    assert.not.ok(existsSync(join(restored, "session-token")));

    const h = await startTestHost({ home: restored });
    try {
      const tasks = await h.json<{ title: string }[]>("/api/tasks");
      assert.is(tasks.body.length, rows, "the server serves exactly the backed-up rows");
      assert.ok(tasks.body.some((x) => x.title === "before 0"));
    } finally {
      await h.stop();
    }
  } finally {
    removeHome(dir);
  }
});

t("restore refuses while a server holds MUSTER_HOME, and changes nothing", async () => {
  const dir = scratch();
  try {
    await withTestHost(async (h) => {
      await h.request("/api/tasks", { method: "POST", body: { title: "kept" } });
      const archive = join(dir, "b.tar.gz");
      assert.is((await runMuster(["backup", archive], { MUSTER_HOME: h.home })).status, 0);
      await h.request("/api/tasks", { method: "POST", body: { title: "after the backup" } });
      const run = await runMuster(["restore", archive], { MUSTER_HOME: h.home });
      assert.is(run.status, 1);
      assert.match(run.stderr, /^muster restore: RESTORE_SERVER_RUNNING: .*stop it before restoring/);
      const titles = (await h.json<{ title: string }[]>("/api/tasks")).body.map((x) => x.title);
      assert.ok(titles.includes("after the backup"), "the running server's data is untouched");
      assert.ok(existsSync(join(h.home, "muster.lock")), "its lock is still there");
    });
  } finally {
    removeHome(dir);
  }
});

t("the directory form round-trips, and a restore over an existing home keeps the previous one aside", async () => {
  const dir = scratch();
  try {
    const copy = join(dir, "backup-dir");
    await withTestHost(async (h) => {
      await h.request("/api/tasks", { method: "POST", body: { title: "in the directory backup" } });
      // An installed plugin's links: one inside the home (kept), the plugin-kit link out of it (left out; the server re-creates it).
      mkdirSync(join(h.home, "node_modules", "@muster"), { recursive: true });
      mkdirSync(join(h.home, "node_modules", "pkg"));
      mkdirSync(join(h.home, "node_modules", ".bin"));
      writeFileSync(join(h.home, "node_modules", "pkg", "bin.js"), "// tool\n");
      symlinkSync("../pkg/bin.js", join(h.home, "node_modules", ".bin", "tool"));
      symlinkSync(join(ROOT, "core", "plugin-api"), join(h.home, "node_modules", "@muster", "plugin"));
      const run = await runMuster(["backup", copy, "--format", "dir"], { MUSTER_HOME: h.home });
      assert.is(run.status, 0, run.stderr);
    });
    assert.ok(existsSync(join(copy, "muster-backup.json")) && existsSync(join(copy, "muster.db")));
    assert.is(statSync(copy).mode & 0o777, 0o700);
    const home = markedHome(dir);
    const run = await runMuster(["restore", copy], { MUSTER_HOME: home });
    assert.is(run.status, 0, run.stderr);
    const aside = readdirSync(dir).find((name) => name.startsWith("home.before-restore-"));
    assert.ok(aside, run.stdout);
    assert.is(readFileSync(join(dir, aside!, "marker"), "utf8"), "untouched", "the previous home is kept");
    assert.match(run.stdout, /previous home is kept at/);
    assert.is(readlinkSync(join(home, "node_modules", ".bin", "tool")), "../pkg/bin.js", "a link within the home is restored as a link");
    assert.not.ok(existsSync(join(home, "node_modules", "@muster", "plugin")), "a link out of the home is not in the backup");
    assert.not.ok(existsSync(join(home, "muster.lock")), "the restore's own lock is gone");
    // The restored rows as the server serves them (after the checks above: a start re-creates the plugin-kit link).
    await withTestHost({ home }, async (h) => {
      assert.equal((await h.client.getTasks()).map((task) => task.title), ["in the directory backup"]);
    });
  } finally {
    removeHome(dir);
  }
});

t("in a checkout, the default backup file and the home a restore moves aside are ignored by git (no database one `git add .` from a commit)", async () => {
  const dir = scratch();
  try {
    // A clone as a user has it: the project's .gitignore, MUSTER_HOME at its default ./.muster.
    const repo = join(dir, "checkout");
    mkdirSync(repo);
    execFileSync("git", ["init", "--quiet", repo]);
    writeFileSync(join(repo, ".gitignore"), readFileSync(join(ROOT, ".gitignore")));
    execFileSync("git", ["-C", repo, "add", ".gitignore"]);
    execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "--quiet", "-m", "init"]);
    const home = join(repo, ".muster");
    const archive = join(repo, "muster-backup-2026-11-27T05-00-00-000Z.tar.gz");
    await withTestHost({ home }, async (h) => {
      assert.is((await h.request("/api/tasks", { method: "POST", body: { title: "kept" } })).status, 201);
      const run = await runMuster(["backup", archive], { MUSTER_HOME: h.home });
      assert.is(run.status, 0, run.stderr);
    });
    const run = await runMuster(["restore", archive], { MUSTER_HOME: home });
    assert.is(run.status, 0, run.stderr);
    assert.ok(readdirSync(repo).some((name) => name.startsWith(".muster.before-restore-")), run.stdout);
    assert.is(execFileSync("git", ["-C", repo, "status", "--porcelain", "--untracked-files=all"], { encoding: "utf8" }), "", "git status is clean");
  } finally {
    removeHome(dir);
  }
});

t("bad archives are refused with MUSTER_HOME unchanged", async () => {
  const dir = scratch();
  try {
    const home = markedHome(dir);
    const stage = join(dir, "stage");
    const pack = (name: string, files: Record<string, string | Buffer>, extra: string[] = []) => {
      rmSync(stage, { recursive: true, force: true });
      mkdirSync(join(stage, "home"), { recursive: true });
      for (const [path, content] of Object.entries(files)) writeFileSync(join(stage, path), content);
      const file = join(dir, name);
      execFileSync("tar", ["-czPf", file, "-C", stage, ".", ...extra]);
      return file;
    };
    const manifest = JSON.stringify({ format: "muster-backup", version: 1, createdAt: "2026-01-01T00:00:00.000Z", musterVersion: "1.0.0", home: "/x", files: 0 });
    writeFileSync(join(dir, "outside.txt"), "evil");
    const goodDb = join(dir, "good.db");
    // A valid database file to pack into the bad archives below (a fixture, not a read).
    new Database(goodDb).exec("CREATE TABLE x (a)").close();
    const cases: [string, string, RegExp][] = [
      ["missing file", join(dir, "nope.tar.gz"), /does not exist/],
      ["not a tar", (writeFileSync(join(dir, "junk.tar.gz"), "not an archive"), join(dir, "junk.tar.gz")), /not a gzipped tar/],
      ["no manifest", pack("a.tar.gz", { "muster.db": readFileSync(goodDb) }), /no readable muster-backup.json/],
      ["other format", pack("b.tar.gz", { "muster-backup.json": JSON.stringify({ format: "zip" }), "muster.db": readFileSync(goodDb) }), /does not describe/],
      ["newer version", pack("c.tar.gz", { "muster-backup.json": manifest.replace('"version":1', '"version":9'), "muster.db": readFileSync(goodDb) }), /format version 9/],
      ["no database", pack("d.tar.gz", { "muster-backup.json": manifest }), /database is missing/],
      ["corrupt database", pack("e.tar.gz", { "muster-backup.json": manifest, "muster.db": Buffer.alloc(8192, 7) }), /database (fails|cannot be opened)/],
      ["member escaping", pack("f.tar.gz", { "muster-backup.json": manifest, "muster.db": readFileSync(goodDb) }, ["../outside.txt"]), /outside the restored home/],
    ];
    for (const [label, file, reason] of cases) {
      const run = await runMuster(["restore", file], { MUSTER_HOME: home });
      assert.is(run.status, 1, `${label}: ${run.stderr}`);
      assert.match(run.stderr, /^muster restore: RESTORE_ARCHIVE_INVALID: /, label);
      assert.match(run.stderr, reason, label);
      assertUntouched(dir, home);
    }
    // A link inside the backup that points out of it (home/escape -> /etc).
    rmSync(stage, { recursive: true, force: true });
    mkdirSync(join(stage, "home"), { recursive: true });
    writeFileSync(join(stage, "muster-backup.json"), manifest);
    writeFileSync(join(stage, "muster.db"), readFileSync(goodDb));
    execFileSync("ln", ["-s", "/etc", join(stage, "home", "escape")]);
    const linked = await runMuster(["restore", stage], { MUSTER_HOME: home });
    assert.is(linked.status, 1);
    assert.match(linked.stderr, /symbolic link home\/escape points outside/);
    assertUntouched(dir, home);
  } finally {
    removeHome(dir);
  }
});

t("backup refuses to overwrite, needs a database, and checks its flags", async () => {
  const dir = scratch();
  try {
    const empty = join(dir, "empty-home");
    mkdirSync(empty);
    const none = await runMuster(["backup", join(dir, "x.tar.gz")], { MUSTER_HOME: empty });
    assert.is(none.status, 1);
    assert.match(none.stderr, /BACKUP_NO_DATABASE/);
    await withTestHost(async (h) => {
      const target = join(dir, "exists.tar.gz");
      writeFileSync(target, "keep me");
      const run = await runMuster(["backup", target], { MUSTER_HOME: h.home });
      assert.is(run.status, 1);
      assert.match(run.stderr, /BACKUP_TARGET_EXISTS/);
      assert.is(readFileSync(target, "utf8"), "keep me");
      const bad = await runMuster(["backup", join(dir, "y"), "--format", "zip"], { MUSTER_HOME: h.home });
      assert.is(bad.status, 2);
      assert.match(bad.stderr, /--format must be tar or dir/);
      assert.equal(readdirSync(dir).sort(), ["empty-home", "exists.tar.gz"], "no partial file is left behind");
    });
  } finally {
    removeHome(dir);
  }
});

t.run();
