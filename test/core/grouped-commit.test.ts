// The store kit's group commit (`atomically(db, body, { grouped: true })`, issue 26) on the
// embedded SQLite: the grouped steps of one turn of the event loop share one commit, each
// settles only once that commit is done, a step's own refusal fails it alone, a storage
// fault fails the group and keeps nothing, and a refusal at the commit itself (a deferred
// foreign key) runs each step again alone. Through the kit's own function, called as a
// plugin's store calls it, on a real host's database, watched from a second connection.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import Database from "better-sqlite3";
import { atomically, defineHook, definePlugin, hostTokens, type AtomicBody, type Database as MusterDatabase } from "@muster/plugin";
import { onPostgres, removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";

const t = suite("grouped commit");

let h: TestHost;
let db: MusterDatabase;
/** A second connection to the host's file: what another process sees, and the WAL's size. */
let watcher: Database.Database;

const probe = definePlugin({ id: "db-probe", version: "1.0.0", host: "^1.0.0", onStart: defineHook({ deps: { db: hostTokens.db }, run: (deps) => void (db = deps.db) }) });

const insertNote = (id: string, fail = false): AtomicBody<number> =>
  function* (tx) {
    const { changes } = yield* tx.run("INSERT INTO grouped_notes (id, title) VALUES (?, ?)", [id, `note ${id}`]);
    if (fail) throw new Error(`step ${id} refuses after writing`);
    return changes;
  };
const stored = () => (watcher.prepare("SELECT id FROM grouped_notes ORDER BY id").pluck().all() as string[]);

/** Frames in the WAL now (a passive checkpoint reports them; it copies, and never resets, the log). */
const walFrames = () => (watcher.pragma("wal_checkpoint(PASSIVE)") as { log: number }[])[0]!.log;
/** Empties the WAL, so that the next writes' frames can be counted from 0. */
function truncateWal(): void {
  const [result] = watcher.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number }[];
  assert.equal([result!.busy, result!.log], [0, 0], "the WAL was emptied");
}

if (onPostgres) {
  // On PostgreSQL `grouped` changes nothing (each transaction commits itself); the store kit's suite covers it there.
  t("SQLite only", () => console.log("grouped commit: skipped on PostgreSQL"));
} else {
  t.before(async () => {
    h = await startTestHost({ plugins: [], extraPlugins: [probe] });
    db.sql.exec("CREATE TABLE grouped_notes (id TEXT PRIMARY KEY, title TEXT NOT NULL)");
    watcher = new Database(join(h.home, "muster.db"), { fileMustExist: true });
    watcher.pragma("busy_timeout = 5000");
  });
  t.after(async () => {
    watcher?.close();
    await h?.stop();
    if (h) removeHome(h.home);
  });

  t("the grouped steps of one turn share one commit, and each settles after it: nothing is visible before", async () => {
    truncateWal();
    const settled: string[] = [];
    const steps = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10"].map((id) => atomically(db, insertNote(id), { grouped: true }).then(() => settled.push(id)));
    // Queued, not run: the turn is not over, so another connection sees none of them yet.
    assert.equal(stored(), []);
    await Promise.all(steps);
    assert.is(settled.length, 10);
    assert.is(stored().length, 10, "every step committed once its promise settled");
    const grouped = walFrames();

    // The same ten writes, each awaited before the next: ten commits.
    truncateWal();
    for (let i = 1; i <= 10; i++) await atomically(db, insertNote(`b${i}`), { grouped: true });
    const separate = walFrames();
    assert.ok(grouped > 0 && grouped * 3 <= separate, `one commit wrote ${grouped} WAL frames, ten commits ${separate}`);
  });

  t("a step's own refusal (its throw, a broken constraint) fails it alone and rolls its writes back; the rest of the group commits", async () => {
    const outcomes = await Promise.allSettled([
      atomically(db, insertNote("c1"), { grouped: true }),
      atomically(db, insertNote("c2", true), { grouped: true }),
      atomically(db, insertNote("a1"), { grouped: true }), // taken in the first test: its primary key refuses
      atomically(db, insertNote("c3"), { grouped: true }),
    ]);
    assert.equal(outcomes.map((o) => o.status), ["fulfilled", "rejected", "rejected", "fulfilled"]);
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason), "step c2 refuses after writing");
    assert.is(((outcomes[2] as PromiseRejectedResult).reason as { code?: string }).code, "SQLITE_CONSTRAINT_PRIMARYKEY");
    const ids = stored();
    assert.ok(ids.includes("c1") && ids.includes("c3"), ids.join(","));
    assert.not.ok(ids.includes("c2"), "the refused step's insert was rolled back with it");
  });

  t("a storage fault (another connection holds the write lock) fails every step of the group, and none is kept", async () => {
    watcher.exec("BEGIN IMMEDIATE");
    let outcomes: PromiseSettledResult<number>[];
    try {
      outcomes = await Promise.allSettled(["d1", "d2", "d3"].map((id) => atomically(db, insertNote(id), { grouped: true })));
    } finally {
      watcher.exec("ROLLBACK");
    }
    assert.equal(outcomes.map((o) => o.status), ["rejected", "rejected", "rejected"]);
    for (const outcome of outcomes) assert.is(((outcome as PromiseRejectedResult).reason as { code?: string }).code, "SQLITE_BUSY");
    assert.not.ok(stored().some((id) => id.startsWith("d")), "nothing of the group was kept");
    // The lock gone, the same steps go through.
    await Promise.all(["d1", "d2", "d3"].map((id) => atomically(db, insertNote(id), { grouped: true })));
    assert.ok(["d1", "d2", "d3"].every((id) => stored().includes(id)));
  });

  t("a refusal at the commit itself (a deferred foreign key) names no step: each runs again alone, and only its own fails", async () => {
    db.sql.exec(`CREATE TABLE grouped_parents (id TEXT PRIMARY KEY);
      CREATE TABLE grouped_children (id TEXT PRIMARY KEY, parent TEXT REFERENCES grouped_parents (id) DEFERRABLE INITIALLY DEFERRED);
      INSERT INTO grouped_parents (id) VALUES ('p1');`);
    const child = (id: string, parent: string): AtomicBody<string> =>
      function* (tx) {
        yield* tx.run("INSERT INTO grouped_children (id, parent) VALUES (?, ?)", [id, parent]);
        return id;
      };
    const outcomes = await Promise.allSettled([atomically(db, child("e1", "p1"), { grouped: true }), atomically(db, child("e2", "missing"), { grouped: true }), atomically(db, child("e3", "p1"), { grouped: true })]);
    assert.equal(outcomes.map((o) => o.status), ["fulfilled", "rejected", "fulfilled"]);
    assert.is(((outcomes[1] as PromiseRejectedResult).reason as { code?: string }).code, "SQLITE_CONSTRAINT_FOREIGNKEY");
    assert.equal(watcher.prepare("SELECT id FROM grouped_children ORDER BY id").pluck().all(), ["e1", "e3"]);
  });

  t("without `grouped` a step still runs at once, before atomically returns", async () => {
    const pending = atomically(db, insertNote("f1"));
    assert.ok(stored().includes("f1"), "committed before the call returned");
    assert.is(await pending, 1);
  });
}

t.run();
