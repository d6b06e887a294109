// The index survives restarts and only changed files are read again; watcher events
// (published by a test plugin, and by the real watcher) add, update and remove files.
import { unlinkSync, utimesSync, writeFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { definePlugin } from "@muster/plugin";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { search, startWithFiles, waitUntil, watcherBuses, whenIndexed, writeFiles } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const watcher = watcherBuses();
/** Hands the test the host's event bus (each instance's in a team), to publish what the watcher would. */
const busPlugin = definePlugin({ id: "search-test-bus", version: "1.0.0", host: "^1.0.0", onStart: (ctx) => watcher.add(ctx) });

const t = suite<{ h: TestHost }>("search: persistence and events");

const files: Record<string, string> = {};
for (let i = 0; i < 12; i++) files[`company/knowledge_base/kb-${i}.md`] = `# KB ${i}\n\nthe lemur chapter ${i}\n`;

const paths = (res: { body: ApiBody<"getSearch"> }) => res.body.results.map((r) => r.path).sort();
const publish = watcher.publish;

t.before(async (ctx) => {
  ctx.h = await startWithFiles(files, { extraPlugins: [busPlugin], config: { pluginConfig: { search: { saveDelayMs: 50 } } } });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("the first start builds the index from every file", async ({ h }) => {
  const res = await search(h, { q: "lemur" });
  assert.is(res.body.total, 12);
  const refresh = res.body.stats.lastRefresh;
  assert.ok(refresh, "a refresh ran");
  assert.is(refresh.kind, "build");
  assert.is(refresh.read, res.body.stats.totalFiles);
});

t("a restart loads the persisted index and reads no unchanged file", async (ctx) => {
  const before = (await search(ctx.h, { q: "lemur" })).body;
  ctx.h = await ctx.h.restart();
  await whenIndexed(ctx.h);
  const after = await search(ctx.h, { q: "lemur" });
  assert.is(after.body.total, 12);
  assert.equal(after.body.stats.lastRefresh?.kind, "load");
  assert.is(after.body.stats.lastRefresh?.read, 0);
  assert.is(after.body.stats.lastRefresh?.removed, 0);
  assert.is(after.body.stats.lastRefresh?.unchanged, before.stats.totalFiles);
  assert.equal(after.body.results.map((r) => [r.path, r.score]), before.results.map((r) => [r.path, r.score]));
});

t("a restart re-reads exactly the changed and new files and drops deleted ones", async (ctx) => {
  const total = (await search(ctx.h, { q: "lemur" })).body.stats.totalFiles;
  await ctx.h.stop();
  const ws = ctx.h.workspace;
  writeFileSync(join(ws, "company/knowledge_base/kb-0.md"), "# KB 0\n\nthe lemur chapter now mentions a tapir\n"); // size changed
  const same = join(ws, "company/knowledge_base/kb-1.md");
  writeFileSync(same, "# KB 1\n\nthe tapir chapter 1\n".padEnd(statSync(same).size, " ")); // same size, new mtime
  const mtime = new Date(Date.now() + 5_000);
  utimesSync(same, mtime, mtime);
  unlinkSync(join(ws, "company/knowledge_base/kb-2.md"));
  writeFiles(ws, { "docs/new-tapir.md": "# New\n\na tapir appears\n" });
  ctx.h = await ctx.h.restart();
  await whenIndexed(ctx.h);
  const res = await search(ctx.h, { q: "tapir" });
  assert.equal(paths(res), ["company/knowledge_base/kb-0.md", "company/knowledge_base/kb-1.md", "docs/new-tapir.md"]);
  const refresh = res.body.stats.lastRefresh;
  assert.ok(refresh, "a refresh ran");
  assert.is(refresh.kind, "load");
  assert.is(refresh.read, 3);
  assert.is(refresh.removed, 1);
  assert.is(refresh.unchanged, total - 3);
  assert.is(res.body.stats.totalFiles, total);
  assert.is((await search(ctx.h, { q: "lemur" })).body.total, 10);
});

sqliteFileTest(t, "corrupts the index stored in muster.db")("a corrupt persisted index is rebuilt from the files", async (ctx) => {
  await ctx.h.stop();
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(join(ctx.h.home, "muster.db"));
  // Fault injection: the persisted index is corrupted while the host is down.
  db.prepare("UPDATE search_state SET value = '{not json' WHERE key = 'index'").run();
  db.close();
  ctx.h = await ctx.h.restart();
  await whenIndexed(ctx.h);
  const res = await search(ctx.h, { q: "lemur" });
  assert.is(res.body.total, 10);
  assert.is(res.body.stats.lastRefresh?.kind, "build");
});

sqliteFileTest(t, "reads and damages the index parts in muster.db")("the index is saved as blob parts of one generation; a missing part or a bad manifest rebuilds, an index saved in one blob still loads", async (ctx) => {
  const Database = (await import("better-sqlite3")).default;
  const withDb = <T>(fn: (db: InstanceType<typeof Database>) => T): T => {
    const db = new Database(join(ctx.h.home, "muster.db"));
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  await ctx.h.stop();
  // The blob-part layout at rest is the fact under test; the damage below is fault injection.
  const parts = withDb((db) => db.prepare("SELECT key, data FROM search_state WHERE key LIKE 'index.data/%'").all() as { key: string; data: Buffer }[]);
  const manifest = JSON.parse(withDb((db) => (db.prepare("SELECT value FROM search_state WHERE key = 'index.parts'").get() as { value: string }).value));
  const keys = Array.from({ length: manifest.parts }, (_, n) => `index.data/${manifest.generation}/${n}`);
  assert.equal(parts.map((p) => p.key).sort(), [...keys].sort(), "one generation, older parts deleted");

  // An index saved before the blob was split (the whole blob in the index row) loads as it is.
  const whole = Buffer.concat(keys.map((key) => parts.find((p) => p.key === key)!.data));
  withDb((db) => db.prepare("UPDATE search_state SET data = ? WHERE key = 'index'").run(whole));
  withDb((db) => db.prepare("DELETE FROM search_state WHERE key = 'index.parts' OR key LIKE 'index.data/%'").run());
  ctx.h = await ctx.h.restart();
  await whenIndexed(ctx.h);
  assert.is((await search(ctx.h, { q: "lemur" })).body.stats.lastRefresh?.kind, "load");
  // A re-index saves again, in parts.
  const saved = (await search(ctx.h, { q: "lemur" })).body.stats.lastSave?.savedAt;
  assert.is((await ctx.h.json<ApiBody<"postSearch">>("/api/search", { method: "POST" })).status, 200);
  assert.ok(await waitUntil(async () => (await search(ctx.h, { q: "lemur" })).body.stats.lastSave?.savedAt !== saved), "saved after the re-index");

  for (const damage of ["DELETE FROM search_state WHERE key LIKE 'index.data/%'", "UPDATE search_state SET value = '{\"generation\": 1}' WHERE key = 'index.parts'"]) {
    await ctx.h.stop();
    withDb((db) => db.prepare(damage).run());
    ctx.h = await ctx.h.restart();
    await whenIndexed(ctx.h);
    const res = await search(ctx.h, { q: "lemur" });
    assert.is(res.body.total, 10, damage);
    assert.is(res.body.stats.lastRefresh?.kind, "build", damage);
  }
});

t("watcher events index created and updated files and drop deleted ones", async ({ h }) => {
  writeFiles(h.workspace, { "notes/evented.md": "# Evented\n\nthe quokka arrives\n" });
  assert.is((await search(h, { q: "quokka" })).body.count, 0, "not indexed before the event");
  publish("created", "notes/evented.md", h.workspace);
  assert.ok(await waitUntil(async () => (await search(h, { q: "quokka" })).body.count === 1), "created");
  writeFileSync(join(h.workspace, "notes/evented.md"), "# Evented\n\nthe quokka left; a dugong stays\n");
  publish("updated", "notes/evented.md", h.workspace);
  assert.ok(await waitUntil(async () => (await search(h, { q: "dugong" })).body.count === 1), "updated");
  unlinkSync(join(h.workspace, "notes/evented.md"));
  publish("deleted", "notes/evented.md", h.workspace);
  assert.ok(await waitUntil(async () => (await search(h, { q: "dugong" })).body.count === 0), "deleted");
  assert.ok((await search(h, { q: "lemur" })).body.stats.eventsApplied >= 3);
});

t("event paths outside the workspace, hidden or non-searchable are ignored", async ({ h }) => {
  const before = (await search(h, { q: "lemur" })).body.stats;
  for (const path of ["../outside.md", "/etc/passwd.md", "notes/../../x.md", ".hidden/a.md", "node_modules/x/a.md", "notes/a.txt", "notes/\0.md"]) {
    publish("created", path, h.workspace);
  }
  publish("created", "docs/does-not-exist.md", h.workspace);
  // Events are applied in order: once the last one (an indexable path) counts, the rest are done.
  assert.ok(await waitUntil(async () => (await search(h, { q: "lemur" })).body.stats.eventsApplied > before.eventsApplied), "the last event was applied");
  const after = (await search(h, { q: "lemur" })).body.stats;
  assert.is(after.totalFiles, before.totalFiles);
});

sqliteFileTest(t, "reads the index rows in muster.db")("an event only invalidates the file's row (no whole-index write); shutdown saves everything", async (ctx) => {
  const Database = (await import("better-sqlite3")).default;
  // The per-file row is the storage behaviour under test; the API shows only stats.lastSave.
  const rowOf = (path: string) => {
    const db = new Database(join(ctx.h.home, "muster.db"), { readonly: true });
    try {
      return db.prepare("SELECT path, size FROM search_files WHERE path = ?").get(path);
    } finally {
      db.close();
    }
  };
  assert.ok(rowOf("company/knowledge_base/kb-3.md"), "saved row");
  const saveBefore = (await search(ctx.h, { q: "lemur" })).body.stats.lastSave;
  writeFileSync(join(ctx.h.workspace, "company/knowledge_base/kb-3.md"), "# KB 3\n\nthe lemur chapter 3 with a gecko\n");
  publish("updated", "company/knowledge_base/kb-3.md", ctx.h.workspace);
  assert.ok(await waitUntil(async () => (await search(ctx.h, { q: "gecko" })).body.count === 1));
  assert.is(rowOf("company/knowledge_base/kb-3.md"), undefined, "row invalidated at once");
  assert.equal((await search(ctx.h, { q: "lemur" })).body.stats.lastSave, saveBefore, "the index itself was not rewritten");
  ctx.h = await ctx.h.restart();
  await whenIndexed(ctx.h);
  assert.ok(rowOf("company/knowledge_base/kb-3.md"), "saved at shutdown");
  const res = await search(ctx.h, { q: "gecko" });
  assert.is(res.body.count, 1);
  assert.is(res.body.stats.lastRefresh?.read, 0);
});

t("changes from events survive a restart without being read again", async (ctx) => {
  writeFiles(ctx.h.workspace, { "notes/kept.md": "# Kept\n\nthe axolotl persists\n" });
  publish("created", "notes/kept.md", ctx.h.workspace);
  assert.ok(await waitUntil(async () => (await search(ctx.h, { q: "axolotl" })).body.count === 1));
  ctx.h = await ctx.h.restart();
  await whenIndexed(ctx.h);
  const res = await search(ctx.h, { q: "axolotl" });
  assert.is(res.body.count, 1);
  assert.is(res.body.stats.lastRefresh?.read, 0);
});

t("the real watcher: a file written into memory/ becomes searchable, and goes when deleted", async ({ h }) => {
  const file = join(h.workspace, "memory", "2026-11-22.md");
  writeFiles(h.workspace, { "memory/2026-11-22.md": "# Daily\n\nwatched okapi sighting\n" });
  assert.ok(await waitUntil(async () => (await search(h, { q: "okapi" })).body.count === 1, 10_000), "indexed after the write");
  unlinkSync(file);
  assert.ok(await waitUntil(async () => (await search(h, { q: "okapi" })).body.count === 0, 10_000), "dropped after the delete");
});

t.run();
