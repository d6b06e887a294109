// The compact index through the public surface: `stats.indexing` while a build runs (searches
// answer from the previous index meanwhile), files deleted or changed while the index is
// built, typos and prefixes on the persisted (reloaded) index and on files added since,
// long or empty-of-words queries, and the ranked paths other plugins fuse (SEARCH.rank).
import { unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { defineHook, definePlugin } from "@muster/plugin";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { SEARCH, type WorkspaceSearch } from "../../../plugins/search/tokens.ts";
import { search, startWithFiles, waitUntil, watcherBuses, whenIndexed, writeFiles } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const watcher = watcherBuses();
let probeSearch: WorkspaceSearch | undefined;
/** Hands the test the host's event bus (each instance's in a team; to publish what the watcher would) and the SEARCH token (the last started instance's). */
const probePlugin = definePlugin({ id: "search-test-probe", version: "1.0.0", host: "^1.0.0", dependsOn: ["search"], onStart: defineHook({ deps: { search: SEARCH }, run: ({ search }, ctx) => void (watcher.add(ctx), (probeSearch = search)) }) });
const publish = watcher.publish;

const t = suite<{ h: TestHost }>("search: compact index, indexing state");

const FILES = 1_500;
const files: Record<string, string> = {};
for (let i = 0; i < FILES; i++) files[`company/knowledge_base/bulk/kb-${i}.md`] = `# Bulk ${i}\n\nthe capybara paragraph ${i} ${"filler words here ".repeat(20)}\n`;
files["docs/zebulon-handbook.md"] = "# Zebulon handbook\n\nHow the crew works.\n";
files["docs/doomed.md"] = "# Doomed\n\nthe pangolin page\n";
files["docs/changing.md"] = "# Changing\n\nthe ocelot page\n";

t.before(async (ctx) => {
  ctx.h = await startWithFiles(files, { extraPlugins: [probePlugin] });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("stats.indexing is false once ready; during a re-index searches answer at once from the previous index and say indexing: true", async ({ h }) => {
  const idle = await search(h, { q: "capybara", limit: 1 });
  assert.is(idle.status, 200);
  assert.is(idle.body.stats.indexing, false);
  assert.is(idle.body.total, FILES);
  let finished = false;
  const reindex = h.json<ApiBody<"postSearch">>("/api/search", { method: "POST" }).then((res) => ((finished = true), res));
  const during: { indexing: boolean; total: number }[] = [];
  while (!finished) {
    const res = await search(h, { q: "capybara", limit: 1 });
    assert.is(res.status, 200);
    if (!finished) during.push({ indexing: res.body.stats.indexing, total: res.body.total });
  }
  const done = await reindex;
  assert.is(done.status, 200);
  assert.ok(during.some((d) => d.indexing), `a search saw the build running: ${JSON.stringify(during.slice(0, 5))}`);
  assert.ok(during.every((d) => d.total === FILES), "answered from the complete previous index");
  assert.is((await search(h, { q: "capybara", limit: 1 })).body.stats.indexing, false);
});

t("a file deleted and a file changed while the index is being built end up as on disk", async ({ h }) => {
  const reindex = h.json<ApiBody<"postSearch">>("/api/search", { method: "POST" });
  unlinkSync(join(h.workspace, "docs/doomed.md"));
  publish("deleted", "docs/doomed.md", h.workspace);
  writeFileSync(join(h.workspace, "docs/changing.md"), "# Changing\n\nthe margay page now\n");
  publish("updated", "docs/changing.md", h.workspace);
  assert.is((await reindex).status, 200);
  assert.ok(await waitUntil(async () => (await search(h, { q: "margay" })).body.count === 1), "the changed file has its new text");
  assert.is((await search(h, { q: "pangolin" })).body.count, 0, "the deleted file is gone");
  assert.is((await search(h, { q: "ocelot" })).body.count, 0, "the old text is gone");
});

t("typos and prefixes work on the reloaded index and on files added after the reload", async (ctx) => {
  ctx.h = await ctx.h.restart();
  await whenIndexed(ctx.h);
  const reloaded = await search(ctx.h, { q: "zebulom" });
  assert.is(reloaded.body.stats.lastRefresh?.kind, "load");
  assert.equal(reloaded.body.results.map((r: { path: string }) => r.path), ["docs/zebulon-handbook.md"]);
  assert.equal((await search(ctx.h, { q: "zebu" })).body.results[0]?.path, "docs/zebulon-handbook.md");
  assert.is((await search(ctx.h, { q: "capybar" })).body.total, FILES);
  writeFiles(ctx.h.workspace, { "notes/late.md": "# Late\n\nthe quetzal arrives\n" });
  publish("created", "notes/late.md", ctx.h.workspace);
  assert.ok(await waitUntil(async () => (await search(ctx.h, { q: "quetzal" })).body.count === 1));
  assert.equal((await search(ctx.h, { q: "quetzl" })).body.results.map((r: { path: string }) => r.path), ["notes/late.md"], "typo");
  assert.equal((await search(ctx.h, { q: "quet" })).body.results.map((r: { path: string }) => r.path), ["notes/late.md"], "prefix");
});

t("1 character, punctuation only: 400 SEARCH_QUERY_TOO_SHORT; 10,000 characters: 400 VALIDATION_FAILED; 200 characters of distinct words answer", async ({ h }) => {
  for (const q of ["x", "?", "...,,,;;;", "-".repeat(150)]) {
    const res = await search(h, { q });
    assert.is(res.status, 400, q);
    assert.is(res.body.error?.code, "SEARCH_QUERY_TOO_SHORT", q);
  }
  const huge = await search(h, { q: "capybara ".repeat(1_200).slice(0, 10_000) });
  assert.is(huge.status, 400);
  assert.is(huge.body.error?.code, "VALIDATION_FAILED");
  const many = Array.from({ length: 40 }, (_, i) => `cap${String.fromCharCode(97 + (i % 26))}${i}`).join(" ").slice(0, 200);
  const res = await search(h, { q: many });
  assert.is(res.status, 200);
  assert.is(res.body.total, 0);
});

t("SEARCH.rank gives the paths of GET /api/search in the same order, ranked from 1, without excerpts", async ({ h }) => {
  const res = await search(h, { q: "zebulon handbook crew", limit: 5 });
  const ranked = await probeSearch!.rank("zebulon handbook crew", { limit: 5 });
  assert.equal(
    ranked.map((r) => [r.path, r.score]),
    res.body.results.map((r: { path: string; score: number }) => [r.path, r.score]),
  );
  assert.equal(ranked.map((r) => r.rank), ranked.map((_, i) => i + 1));
  assert.equal(await probeSearch!.rank("?!", { limit: 5 }), []);
  const filtered = await probeSearch!.rank("capybara", { limit: 3, category: "docs" });
  assert.equal(filtered, []);
});

t.run();
