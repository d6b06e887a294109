// The start-up never makes searches wait: during the first build (held between two slices
// by a test seam, not by timing) searches answer at once from the files read so far with
// `stats.indexing: true`; a watcher event arriving meanwhile is applied after the build;
// `POST /api/search` shares the running start-up build instead of queueing a second one;
// after a restart, searches answer from the saved index while the refresh runs.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { defineHook, definePlugin, type PluginContext, type PluginDefinition } from "@muster/plugin";
import { builtInPlugins } from "../../../plugins/built-in.ts";
import { searchPlugin } from "../../../plugins/search/index.ts";
import { registerSearchServices } from "../../../plugins/search/services/register.ts";
import type { BuildProgress } from "../../../plugins/search/services/search-index.ts";
import { SEARCH, type WorkspaceSearch } from "../../../plugins/search/tokens.ts";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { inTeam, singleInstanceTest } from "../../helpers/team-host.ts";
import { search, startWithFiles, waitUntil, whenIndexed, writeFiles } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

/** Holds builds and refreshes at their first pause of the given kind, until released. */
class Hold {
  kinds: BuildProgress["kind"][] = [];
  private target: BuildProgress["kind"] | undefined;
  private reached: ((progress: BuildProgress) => void) | undefined;
  private release: (() => void) | undefined;

  /** Resolves with the progress at the first pause of `kind` after this call (where it is then held). */
  arm(kind: BuildProgress["kind"]): Promise<BuildProgress> {
    this.target = kind;
    return new Promise((resolve) => (this.reached = resolve));
  }

  open(): void {
    this.target = undefined;
    this.release?.();
  }

  async betweenSlices(progress: BuildProgress): Promise<void> {
    this.kinds.push(progress.kind);
    if (progress.kind !== this.target || (progress.kind === "build" && progress.published < MIN_PUBLISHED)) return;
    this.target = undefined;
    const held = new Promise<void>((resolve) => (this.release = resolve));
    this.reached?.(progress);
    await held;
  }
}

const hold = new Hold();
const heldSearch: PluginDefinition = { ...searchPlugin, register: (ctx) => registerSearchServices(ctx as PluginContext<never>, { betweenSlices: (p) => hold.betweenSlices(p) }) };
let probe: PluginContext | undefined;
let probeSearch: WorkspaceSearch | undefined;
const probePlugin = definePlugin({ id: "search-test-probe", version: "1.0.0", host: "^1.0.0", dependsOn: ["search"], onStart: defineHook({ deps: { search: SEARCH }, run: ({ search }, ctx) => void ((probe = ctx), (probeSearch = search)) }) });

const FILES = 1_000;
/** The build is held once a partial index of at least this many files serves (a pause comes at least every 256 files). */
const MIN_PUBLISHED = 10;
const files: Record<string, string> = {};
for (let i = 0; i < FILES; i++) files[`company/knowledge_base/bulk/kb-${i}.md`] = `# Bulk ${i}\n\nthe capybara paragraph ${i} ${"filler words here ".repeat(10)}\n`;

const t = suite<{ h: TestHost; firstPause: Promise<BuildProgress> }>("search: start-up never blocks searches");
// The hold is one seam in this test process: in a team both instances build through it, one
// build stays held (and the host's stop waits for it), so the suite needs one instance.
const test = singleInstanceTest(t, "holds one instance's index build through an in-process seam, which both instances would share");

t.before(async (ctx) => {
  if (inTeam) return; // No host: both tests are skipped.
  ctx.firstPause = hold.arm("build");
  ctx.h = await startWithFiles(files, {
    plugins: builtInPlugins.map((p) => (p.id === "search" ? heldSearch : p)),
    extraPlugins: [probePlugin],
    // Every pause may publish (a new partial index still needs twice the documents of the last).
    config: { pluginConfig: { search: { publishEveryMs: 0 } } },
    waitForIndex: false,
  });
});
t.after(async (ctx) => {
  if (inTeam) return;
  hold.open();
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

test("during the first build: searches answer 200 at once from the files read so far; an event and POST /api/search wait for the same build", async (ctx) => {
  const { h } = ctx;
  const progress = await ctx.firstPause; // The build is held here until hold.open().
  try {
    await duringTheHeldBuild(h, progress);
  } finally {
    hold.open(); // Also when an assertion failed: a held build would hold the host's stop.
  }
});

async function duringTheHeldBuild(h: TestHost, progress: BuildProgress): Promise<void> {
  assert.ok(progress.published > 0 && progress.published < FILES, `partial index published: ${JSON.stringify(progress)}`);
  const during = await search(h, { q: "capybara", limit: 5 });
  assert.is(during.status, 200);
  assert.is(during.body.stats.indexing, true);
  assert.is(during.body.stats.state, "loading");
  assert.is(during.body.total, progress.published, "answered from the partial index");
  assert.is(during.body.count, 5, "limit");
  assert.is(during.body.stats.lastRefresh, null);
  const ranked = await probeSearch!.rank("capybara", { limit: 3 });
  assert.is(ranked.length, 3, "rank answers from what exists too");
  assert.is((await search(h, { q: "x" })).body.error?.code, "SEARCH_QUERY_TOO_SHORT", "bad queries are refused as usual");

  // Written and announced while the build holds the queue: applied after it, not lost.
  writeFiles(h.workspace, { "notes/late.md": "# Late\n\nthe quetzal arrives during the build\n" });
  probe!.events.publish("workspace.file.changed", { type: "created", path: "notes/late.md", absolutePath: join(h.workspace, "notes/late.md"), timestamp: Date.now() });
  const refused = await h.json<ApiBody<"postSearch">>("/api/search", { method: "POST", body: { force: true } });
  assert.is(refused.status, 400);
  assert.is(refused.body.error?.code, "VALIDATION_FAILED");
  const shared = h.json<ApiBody<"postSearch">>("/api/search", { method: "POST" });
  const alsoShared = h.json<ApiBody<"postSearch">>("/api/search", { method: "POST", body: {} });
  assert.is((await search(h, { q: "quetzal" })).body.total, 0, "the event waits behind the build");

  hold.open();
  const [first, second] = await Promise.all([shared, alsoShared]);
  assert.is(first.status, 200);
  assert.is(first.body.filesIndexed, FILES);
  assert.equal(second.body, first.body, "both callers got the one build's result");
  assert.not.ok(hold.kinds.includes("reindex"), "no second full build ran");
  assert.ok(await waitUntil(async () => (await search(h, { q: "quetzal" })).body.total === 1), "the file written during the build is searchable after it");
  await whenIndexed(h);
  const after = await search(h, { q: "capybara", limit: 1 });
  assert.is(after.body.total, FILES);
  assert.is(after.body.stats.state, "ready");
  assert.is(after.body.stats.indexing, false);
  assert.is(after.body.stats.lastRefresh?.kind, "build");
  // The event published above, and possibly the watcher's own report of the same file (it follows
  // documents outside the watched locations too, from just after the server listens).
  assert.ok(after.body.stats.eventsApplied >= 1, `events applied: ${after.body.stats.eventsApplied}`);
}

test("after a restart: searches answer from the saved index at once while the refresh re-reads changed files", async (ctx) => {
  await ctx.h.stop();
  // 300 changed files: the refresh pauses (and is held) after the first slice of them.
  for (let i = 0; i < 300; i++) writeFileSync(join(ctx.h.workspace, `company/knowledge_base/bulk/kb-${i}.md`), `# Bulk ${i}\n\nthe capybara and the okapi ${i}\n`);
  const held = hold.arm("load");
  ctx.h = await ctx.h.restart();
  await held;
  try {
    await duringTheHeldRefresh(ctx.h);
  } finally {
    hold.open();
  }
  await whenIndexed(ctx.h);
  const after = await search(ctx.h, { q: "okapi", limit: 1 });
  assert.is(after.body.total, 300);
  assert.is(after.body.stats.lastRefresh?.kind, "load");
  assert.is(after.body.stats.lastRefresh?.read, 300);
});

async function duringTheHeldRefresh(h: TestHost): Promise<void> {
  const during = await search(h, { q: "capybara", limit: 1 });
  assert.is(during.status, 200);
  assert.is(during.body.stats.state, "ready", "a complete (saved) index serves");
  assert.is(during.body.stats.indexing, true);
  assert.ok(during.body.total >= FILES, "answered from the saved index");
}

t.run();
