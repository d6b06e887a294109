// The watcher's initial scan runs after the server listens (issue 26). A file written, deleted
// or renamed while it runs, in a directory the scan has not reached yet, must still reach the
// stream and search; and a stop during the scan must end cleanly. The workspace is large
// enough (4,000 files) that the scan is still running when the first answer comes, which each
// test checks through `GET /api/health`'s `watcher` field instead of assuming it.
import { mkdtempSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort, startServer, stopServer } from "../../../scripts/bench/processes.ts";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { openSse } from "../../helpers/sse-client.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { search, whenIndexed, writeFiles } from "../../plugins/search/helpers.ts";

const t = suite("workspace watcher: the initial scan after listening");

const ROOT = new URL("../../..", import.meta.url).pathname;
const MEMORY_DIRS = 30;
const NOTES_DIRS = 10;
const PER_DIR = 100;
const dir = (n: number) => `d${String(n).padStart(2, "0")}`;
/** Bounds of the event-driven waits: generous, the machine is shared and the scan is large. */
const LONG = { timeoutMs: 30_000, intervalMs: 50 };

/** A home whose workspace holds 3,000 files in the watched `memory/` and 1,000 in `notes/` (the document watcher's). */
function largeWorkspace(extra: Record<string, string> = {}): { home: string; workspace: string } {
  const home = mkdtempSync(join(tmpdir(), "muster-scan-"));
  const workspace = join(home, "workspace");
  const files: Record<string, string> = { ...extra };
  for (let d = 0; d < MEMORY_DIRS; d++) for (let f = 0; f < PER_DIR; f++) files[`memory/${dir(d)}/f${f}.md`] = `# note ${d} ${f}\nordinary words here\n`;
  for (let d = 0; d < NOTES_DIRS; d++) for (let f = 0; f < PER_DIR; f++) files[`notes/${dir(d)}/f${f}.md`] = `# doc ${d} ${f}\nordinary words here\n`;
  writeFiles(workspace, files);
  return { home, workspace };
}

/** An error, or a warning about the watcher (other plugins warn at start: the vault is locked, say). */
const isProblem = (entry: { level: number; msg?: string; component?: string }) => entry.level >= 50 || (entry.level >= 40 && (entry.component === "watcher" || /watch/i.test(entry.msg ?? "")));
const watcherState = async (h: TestHost) => (await h.json("/api/health")).body.watcher;
const found = async (h: TestHost, word: string) => (await search(h, { q: word, limit: 5 })).body.results.map((r) => r.path);

t("a file written right after the first answer, while the scan runs, is reported on the stream and found by search", async () => {
  const { home, workspace } = largeWorkspace();
  const h = await startTestHost({ home, workspace, config: { watchDebounceMs: 30 } });
  try {
    // The first answer: the stream's `connected` frame.
    const sse = await openSse(h.url);
    await sse.next((f) => f.data.type === "connected");
    // One new file in every directory, most of which the scan has not reached yet.
    const fresh = Array.from({ length: MEMORY_DIRS }, (_, d) => `memory/${dir(d)}/fresh.md`);
    const freshDocs = Array.from({ length: NOTES_DIRS }, (_, d) => `notes/${dir(d)}/fresh.md`);
    for (const [i, rel] of [...fresh, ...freshDocs].entries()) writeFileSync(join(workspace, rel), `# fresh\nzqfresh${i}x\n`);
    assert.is(await watcherState(h), "scanning", "the writes happened during the scan (else this test proves nothing)");

    for (const rel of fresh) await sse.next((f) => f.data.type === "file_change" && f.data.event.path === rel, LONG.timeoutMs, `file_change for ${rel}`);
    await waitUntil(async () => (await watcherState(h)) === "ready", { ...LONG, label: "the scan ended" });
    for (const [i, rel] of [...fresh, ...freshDocs].entries()) {
      await waitUntil(async () => (await found(h, `zqfresh${i}x`)).includes(rel), { ...LONG, label: `search finds ${rel}` });
    }
    // Only the new files are reported: the 4,000 listed by the scan are older than its mark.
    const reported = new Set(sse.frames.filter((f) => f.data.type === "file_change").map((f) => f.data.event.path as string));
    assert.equal([...reported].filter((p) => !fresh.includes(p)), [], "no file older than the scan is reported");
    sse.close();
  } finally {
    await h.stop();
    removeHome(home);
  }
});

t("files deleted and renamed during the scan are gone from search (restart on a saved index)", async () => {
  const { home, workspace } = largeWorkspace({
    "memory/d07/gone.md": "zqgonememory\n",
    "notes/d03/gone.md": "zqgonenotes\n",
    "memory/d11/moved.md": "zqmovedmemory\n",
    "notes/d05/moved.md": "zqmovednotes\n",
  });
  let h = await startTestHost({ home, workspace, config: { watchDebounceMs: 30 } });
  try {
    await whenIndexed(h, LONG.timeoutMs);
    assert.equal(await found(h, "zqgonememory"), ["memory/d07/gone.md"]);
    h = await h.restart(); // the index is saved at the stop and loaded again
    const sse = await openSse(h.url);
    await sse.next((f) => f.data.type === "connected");
    assert.is(await watcherState(h), "scanning", "the changes below happen during the scan");
    unlinkSync(join(workspace, "memory/d07/gone.md"));
    unlinkSync(join(workspace, "notes/d03/gone.md"));
    renameSync(join(workspace, "memory/d11/moved.md"), join(workspace, "memory/d11/moved-new.md"));
    renameSync(join(workspace, "notes/d05/moved.md"), join(workspace, "notes/d06/moved-new.md"));

    // In the watched locations the stream says so too (the rest is not streamed).
    for (const [type, path] of [
      ["deleted", "memory/d07/gone.md"],
      ["deleted", "memory/d11/moved.md"],
      ["created", "memory/d11/moved-new.md"],
    ]) {
      await sse.next((f) => f.data.type === "file_change" && f.data.event.path === path && f.data.event.type === type, LONG.timeoutMs, `${type} ${path}`);
    }
    sse.close();
    await waitUntil(async () => (await watcherState(h)) === "ready", { ...LONG, label: "the scan ended" });
    await whenIndexed(h, LONG.timeoutMs);
    for (const [word, paths] of [
      ["zqgonememory", []],
      ["zqgonenotes", []],
      ["zqmovedmemory", ["memory/d11/moved-new.md"]],
      ["zqmovednotes", ["notes/d06/moved-new.md"]],
    ] as const) {
      await waitUntil(async () => JSON.stringify(await found(h, word)) === JSON.stringify(paths), { ...LONG, label: `search for ${word} answers ${JSON.stringify(paths)}` });
    }
  } finally {
    await h.stop();
    removeHome(home);
  }
});

t("a stop during the scan ends cleanly: no error logged, no watch left open", async () => {
  const { home, workspace } = largeWorkspace();
  const lines: string[] = [];
  const logger = pino({ level: "info" }, new Writable({ write: (chunk, _encoding, done) => done(void lines.push(String(chunk))) }));
  const openWatches = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
  const before = openWatches();
  const h = await startTestHost({ home, workspace, logger });
  try {
    assert.is(await watcherState(h), "scanning");
  } finally {
    await h.stop();
  }
  await waitUntil(async () => openWatches() <= before, { timeoutMs: 5_000, intervalMs: 20, label: "every fs.watch closed" });
  const problems = lines.filter((line) => isProblem(JSON.parse(line) as { level: number; msg?: string; component?: string }));
  assert.equal(problems, [], "no error, and no warning of the watcher");
  assert.ok(lines.some((line) => line.includes("muster stopped")));
  removeHome(home);
});

t("SIGTERM during the scan: the server process exits 0 without an error", async () => {
  const { home, workspace } = largeWorkspace();
  const port = await freePort();
  const server = await startServer({
    name: "muster",
    args: ["core/main.ts", "start"],
    env: { PORT: String(port), MUSTER_HOME: home, WORKSPACE_DIR: workspace, LOG_LEVEL: "info" },
    port,
    cwd: ROOT,
    timeoutMs: LONG.timeoutMs,
  });
  try {
    const health = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as { watcher: string };
    assert.is(health.watcher, "scanning");
  } finally {
    await stopServer(server.child, 30_000);
  }
  assert.is(server.child.signalCode, null, `exited by itself, not killed:\n${server.output()}`);
  assert.is(server.child.exitCode, 0, server.output());
  const problems = server.output().split("\n").filter((line) => line.startsWith("{") && isProblem(JSON.parse(line) as { level: number; msg?: string; component?: string }));
  assert.equal(problems, [], "no error, and no warning of the watcher");
  assert.match(server.output(), /muster stopped/);
  removeHome(home);
});

t.run();
