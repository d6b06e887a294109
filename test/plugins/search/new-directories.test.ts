// Files written after the server started, in directories that did not exist at start, reach
// full-text search without a re-index: nested new directories, a directory created empty and
// filled later, a directory moved into the workspace, both inside the spec's watched locations
// and elsewhere in the workspace (which the full-text index covers too). Edits and deletions
// outside the watched locations reach the index as well. Only the watched locations log an
// activity and stream a `file_change` frame (the spec's list); semantic search agrees with
// full-text search on the same files.
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { openSse, type SseConnection } from "../../helpers/sse-client.ts";
import { sleep, waitUntil as waitFor } from "../../helpers/wait.ts";
import type { ApiBody } from "@muster/plugin/testing";
import { search, startWithFiles, waitUntil, writeFiles } from "./helpers.ts";

const t = suite<{ h: TestHost }>("search: files in directories created after start");

/** Generous (and stretched by the load in the waits themselves); the watcher's own latency is tens of milliseconds. */
const BOUND = 30_000;

t.before(async (ctx) => {
  ctx.h = await startWithFiles({ "notes/existing.md": "# Existing\n\nthe okapi page\n", "notes/doomed.md": "# Doomed\n\nthe tapir page\n" });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const paths = async (h: TestHost, q: string) => (await search(h, { q })).body.results.map((r: { path: string }) => r.path);
/** Polls full-text search until `q` finds exactly `expected`. */
async function found(h: TestHost, q: string, expected: string[]): Promise<void> {
  const ok = await waitUntil(async () => JSON.stringify(await paths(h, q)) === JSON.stringify(expected), BOUND);
  assert.ok(ok, `search "${q}" finds ${JSON.stringify(expected)} (got ${JSON.stringify(await paths(h, q))})`);
}
/**
 * The rest of the workspace is scanned just after the server starts listening (docs/workspace.md),
 * so a file written before that scan reaches its directory is not reported: a sentinel rewritten
 * until search has it proves the scan is done.
 */
async function documentWatcherReady(h: TestHost): Promise<void> {
  await waitFor(async () => {
    writeFiles(h.workspace, { "ready/sentinel.md": `# Sentinel\n\nthe sentinel written at ${Date.now()}\n` });
    return JSON.stringify(await paths(h, "sentinel")) === JSON.stringify(["ready/sentinel.md"]);
  }, { timeoutMs: BOUND, intervalMs: 250, label: "document watcher ready" });
}
const fileChanges = (sse: SseConnection, path: string) => sse.frames.filter((f) => f.data?.type === "file_change" && f.data.event.path === path);
const activities = async (h: TestHost, target: string) =>
  (await h.json<ApiBody<"getActivities">>("/api/activities?agentId=watcher&limit=1000")).body.filter((a) => a.target === target);

for (const [where, base] of [
  ["a watched location (memory/)", "memory"],
  ["the rest of the workspace (notes/)", "notes"],
] as const) {
  const watched = base === "memory";
  t(`${where}: nested new directories, an empty directory filled later, a directory moved in`, async ({ h }) => {
    const sse = await openSse(h.url);
    try {
      await sse.next((f) => f.data.type === "connected");
      await inNewDirectories(h, sse);
    } finally {
      sse.close();
    }
  });

  async function inNewDirectories(h: TestHost, sse: SseConnection): Promise<void> {
    if (!watched) await documentWatcherReady(h);
    const nested = `${base}/2026/11/a.md`;
    writeFiles(h.workspace, { [nested]: `# November\n\nthe ${base}quokka sighting\n` });
    await found(h, `${base}quokka`, [nested]);

    mkdirSync(join(h.workspace, `${base}/empty-first/deeper`), { recursive: true });
    // A sleep on purpose: an empty directory reports nothing to wait on; the file must land after the watcher took it in.
    await sleep(200);
    const later = `${base}/empty-first/deeper/b.md`;
    writeFileSync(join(h.workspace, later), `# Later\n\nthe ${base}numbat arrives\n`);
    await found(h, `${base}numbat`, [later]);

    // Built outside the workspace (in the home, on the same file system), then renamed into it in one step.
    const staging = join(h.home, `staging-${base}`);
    writeFiles(staging, { "inner/c.md": `# Moved\n\nthe ${base}axolotl report\n`, "d.yaml": `title: Moved yaml\nanimal: ${base}pangolin\n` });
    renameSync(staging, join(h.workspace, `${base}/moved-in`));
    await found(h, `${base}axolotl`, [`${base}/moved-in/inner/c.md`]);
    await found(h, `${base}pangolin`, [`${base}/moved-in/d.yaml`]);

    // The spec's side effects stay with its watched locations.
    if (watched) {
      await sse.next((f) => f.data?.type === "file_change" && f.data.event.path === nested, BOUND, nested);
      assert.ok(await waitUntil(async () => (await activities(h, nested)).length === 1, BOUND), "one activity for the new file");
    } else {
      assert.is(fileChanges(sse, nested).length, 0, "no file_change outside the watched locations");
      assert.is((await activities(h, nested)).length, 0, "no activity outside the watched locations");
    }
  }
}

t("outside the watched locations, an edited file is re-read and a deleted one leaves the index", async ({ h }) => {
  assert.equal(await paths(h, "okapi"), ["notes/existing.md"]);
  assert.equal(await paths(h, "tapir"), ["notes/doomed.md"]);
  writeFileSync(join(h.workspace, "notes/existing.md"), "# Existing\n\nthe bonobo page now\n");
  unlinkSync(join(h.workspace, "notes/doomed.md"));
  await found(h, "bonobo", ["notes/existing.md"]);
  await found(h, "okapi", []);
  await found(h, "tapir", []);
});

t("semantic search finds the same new files", async ({ h }) => {
  const enabled = await h.json("/api/memory/config", { method: "POST", body: { provider: "hash", enabled: true } });
  assert.is(enabled.status, 200, JSON.stringify(enabled.body));
  // Enabling runs a first job (it walks the whole workspace); a file written after it reaches the semantic index by the watcher.
  // `job` is the answering instance's own (in a team, the primary's: docs/team.md), so one instance's answer is enough.
  assert.ok(await waitUntil(async () => (await h.json("/api/memory/config")).body.job?.status === "done", BOUND, { anyInstance: true }), "the first job ended");
  const rel = "journal/2026/12/e.md";
  writeFiles(h.workspace, { [rel]: "# Journal\n\nthe wombat expedition\n" });
  await found(h, "wombat", [rel]);
  const ok = await waitUntil(async () => {
    const res = await h.json<{ results: { path: string }[] }>("/api/memory/rag?q=wombat%20expedition&mode=vector");
    return res.status === 200 && res.body.results.some((r) => r.path === rel);
  }, BOUND);
  assert.ok(ok, "semantic search finds the new file");
});

t.run();
