// A full build of `search.builderProcessMinFiles` files or more reads and indexes them in a
// child process. It must give the very index a build on the server's thread gives (results,
// scores, excerpts, skipped and malformed files), also for `POST /api/search`, and leave no
// files behind; a builder that dies is replaced by a build on the server's thread; and since a
// build lists the workspace without waiting for the watcher's initial scan, a file deleted
// after the walk listed it and before the scan ended (which no event reports) is not left in
// the index, on either path.
import { existsSync, mkdtempSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { PluginContext, PluginDefinition } from "@muster/plugin";
import { builtInPlugins } from "../../../plugins/built-in.ts";
import { searchPlugin } from "../../../plugins/search/index.ts";
import { registerSearchServices } from "../../../plugins/search/services/register.ts";
import type { SearchSeams } from "../../../plugins/search/services/search-index.ts";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil as waitFor } from "../../helpers/wait.ts";
import { singleInstanceTest } from "../../helpers/team-host.ts";
import type { ApiBody } from "@muster/plugin/testing";
import { search, startWithFiles, whenIndexed, writeFiles } from "./helpers.ts";

const t = suite("search: the builder process");
const seamTest = singleInstanceTest(t, "replaces the search plugin with one built on in-process seams, which both instances would share");

const words = "capybara okapi lemur tapir zebra quetzal axolotl pangolin".split(" ");
const files: Record<string, string | Uint8Array> = {};
for (let i = 0; i < 60; i++) {
  const body = Array.from({ length: 30 + (i % 7) }, (_, k) => words[(i * 3 + k * k) % words.length]).join(i % 2 ? " " : ", ");
  files[`notes/n-${i}.md`] = `# Note ${i} ${words[i % words.length]}\n\nThe ${body}.\n`;
}
files["company/knowledge_base/kb.yaml"] = "title: Knowledge\nbody: the capybara handbook\n";
files["company/broken.yaml"] = "key: [unclosed\nthe okapi: here\n";
files["notes/large.md"] = `# Large\n\n${"lemur ".repeat(1_000)}\n`;
files["notes/binary.md"] = new Uint8Array([0x23, 0x20, 0x00, 0x01, 0x02, 0x6c, 0x65, 0x6d]);
files["notes/latin1.md"] = new Uint8Array([0x23, 0x20, 0xe9, 0xe8, 0x20, 0x6f, 0x6b]);

const config = (search: Record<string, unknown>) => ({ pluginConfig: { search: { maxFileBytes: 2_048, ...search } } });
/** A host whose search plugin is registered with `seams`. */
const withSeams = (seams: SearchSeams): PluginDefinition[] =>
  builtInPlugins.map((p) => (p.id === "search" ? { ...searchPlugin, register: (ctx) => registerSearchServices(ctx as PluginContext<never>, seams) } : p));

const QUERIES = ["capybara", "okapi lemur", "pangolim", "quetzal axolotl tapir", "handbook"];
/** What a search answers, without the timings and dates of the build behind it. */
async function answers(h: TestHost) {
  const out = [];
  for (const q of QUERIES) {
    const { body } = await search(h, { q, limit: 100 });
    out.push({ q, total: body.total, results: body.results });
  }
  const { stats } = (await search(h, { q: "zz" })).body;
  return { out, totalFiles: stats.totalFiles, skipped: stats.skipped, malformed: stats.malformed };
}

async function stopAll(...hosts: (TestHost | undefined)[]) {
  for (const h of hosts) {
    if (!h) continue;
    await h.stop();
    removeHome(h.home);
  }
}

t("a build in the builder process gives the index a build on the server's thread gives, at the start and for POST /api/search", async () => {
  let inProcess: TestHost | undefined;
  let here: TestHost | undefined;
  try {
    inProcess = await startWithFiles(files, { config: config({ builderProcessMinFiles: 1 }) });
    here = await startWithFiles(files, { config: config({}) });
    const threadStats = (await search(inProcess, { q: "zz" })).body.stats;
    assert.is(threadStats.lastRefresh?.builder, "child-process", "built in the builder process");
    assert.is((await search(here, { q: "zz" })).body.stats.lastRefresh?.builder, "main-thread", "below search.builderProcessMinFiles: built on the server's thread");
    const expected = await answers(here);
    assert.equal(await answers(inProcess), expected);
    assert.equal(expected.skipped, { tooLarge: 1, binary: 1, invalidUtf8: 1, symlinksOutside: 0 }, "the files the builds skip");
    assert.is(expected.malformed.count, 1);
    assert.ok(expected.out.every((a) => a.total > 0), "every query finds something");

    const rebuilt = await inProcess.json<ApiBody<"postSearch">>("/api/search", { method: "POST" });
    assert.is(rebuilt.status, 200);
    assert.is(rebuilt.body.filesIndexed, expected.totalFiles);
    await whenIndexed(inProcess);
    const after = (await search(inProcess, { q: "zz" })).body.stats.lastRefresh;
    assert.is(after?.kind, "reindex");
    assert.is(after?.builder, "child-process");
    assert.equal(await answers(inProcess), expected, "the re-index in the builder process gives the same index");
  } finally {
    await stopAll(inProcess, here);
  }
});

/** A host whose builder cannot do its work (`seamsFor` the reference host) must end with the index of one that built on the server's thread. */
async function fallsBackToTheServersThread(seamsFor: (reference: TestHost) => SearchSeams): Promise<void> {
  let h: TestHost | undefined;
  let reference: TestHost | undefined;
  try {
    reference = await startWithFiles(files, { config: config({}) });
    h = await startWithFiles(files, { config: config({ builderProcessMinFiles: 1 }), plugins: withSeams(seamsFor(reference)) });
    assert.is((await search(h, { q: "zz" })).body.stats.lastRefresh?.builder, "main-thread");
    assert.equal(await answers(h), await answers(reference));
  } finally {
    await stopAll(h, reference);
  }
}

seamTest("a builder process that dies is replaced by a build on the server's thread: nothing is missing", () =>
  fallsBackToTheServersThread(() => ({ builderEntry: new URL("./fixtures/dying-builder.ts", import.meta.url) })),
);

seamTest("a builder process that cannot start (no directory for its files) leaves the build to the server's thread", () =>
  fallsBackToTheServersThread((reference) => ({ builderTempRoot: join(reference.home, "no-such-directory") })),
);

seamTest("the builder's private directory is removed after a build, after a builder that died, and when the server stops during a build", async () => {
  const root = mkdtempSync(join(tmpdir(), "muster-builder-root-"));
  const hosts: TestHost[] = [];
  try {
    const built = await startWithFiles(files, { config: config({ builderProcessMinFiles: 1 }), plugins: withSeams({ builderTempRoot: root }) });
    hosts.push(built);
    assert.is((await search(built, { q: "zz" })).body.stats.lastRefresh?.builder, "child-process");
    assert.is((await built.json<ApiBody<"postSearch">>("/api/search", { method: "POST" })).status, 200);
    assert.equal(readdirSync(root), [], "after a build and a re-index");

    const died = await startWithFiles(files, { config: config({ builderProcessMinFiles: 1 }), plugins: withSeams({ builderTempRoot: root, builderEntry: new URL("./fixtures/dying-builder.ts", import.meta.url) }) });
    hosts.push(died);
    assert.equal(readdirSync(root), [], "after a builder that died");

    const hanging = await startWithFiles(files, { config: config({ builderProcessMinFiles: 1 }), plugins: withSeams({ builderTempRoot: root, builderEntry: new URL("./fixtures/hanging-builder.ts", import.meta.url) }), waitForIndex: false });
    hosts.push(hanging);
    // The walk has handed its files over: the builder holds the build.
    await waitFor(() => readdirSync(root).some((dir) => existsSync(join(root, dir, "files.json"))), { timeoutMs: 10_000, intervalMs: 10, label: "the build handed to the builder" });
    assert.is((await search(hanging, { q: "zz" })).body.stats.indexing, true);
    await hanging.stop(); // Ends the builder (a stop that waited for it would never return).
    assert.equal(readdirSync(root), [], "after a stop during the build");
  } finally {
    for (const h of hosts) {
      await h.stop();
      removeHome(h.home);
    }
    rmSync(root, { recursive: true, force: true });
  }
});

seamTest("a build lists the workspace only once the watcher has its mark: a file written just before it is indexed", async () => {
  // In a directory the watcher ignores: only the build's own listing can find it.
  const late = "drafts.tmp/late.md";
  let workspace: ((path: string) => void) | undefined;
  const workspaceOf = new Promise<string>((resolve) => (workspace = resolve));
  let h: TestHost | undefined;
  try {
    h = await startWithFiles(files, {
      config: config({ builderProcessMinFiles: 1 }),
      // Written as the mark is taken, after the search plugin's start: a listing made before
      // the mark would miss it, and its mtime (before the mark) would make the scan skip it.
      plugins: withSeams({ watching: async () => (writeFiles(await workspaceOf, { [late]: "# Late\n\nthe numbat arrives\n" }), true) }),
      waitForIndex: false,
    });
    workspace!(h.workspace);
    await whenIndexed(h);
    const { body } = await search(h, { q: "numbat" });
    assert.is(body.total, 1, "the file written before the mark is indexed");
    assert.is(body.stats.lastRefresh?.builder, "child-process");
  } finally {
    await stopAll(h);
  }
});

for (const [path, builderProcessMinFiles] of [["in the builder process", 1], ["on the server's thread", 1_000_000]] as const) {
  seamTest(`a file deleted after the walk listed it, before the watcher's scan ended, is not left in the index (${path})`, async () => {
    // In a directory the watcher ignores (a scratch name) but the index reads: no event ever
    // reports its deletion, so only the check after the scan can drop it.
    const gone = "drafts.tmp/gone.md";
    let started: (workspace: string) => void = () => undefined;
    const workspaceOf = new Promise<string>((resolve) => (started = resolve));
    let calls = 0;
    let deleted = false;
    const seams: SearchSeams = {
      // The index asks once when it is made (left pending: the scan is still running), then
      // once its build has read the files; the file is deleted then, and the scan ends.
      scanned: async () => {
        calls += 1;
        if (calls === 1) return new Promise<boolean>(() => undefined);
        const workspace = await workspaceOf; // The build may get here before the host's start returned.
        if (!deleted) {
          unlinkSync(join(workspace, gone));
          deleted = true;
        }
        return true;
      },
    };
    let h: TestHost | undefined;
    try {
      h = await startWithFiles({ ...files, [gone]: "# Gone\n\nthe wombat was here\n" }, { config: config({ builderProcessMinFiles }), plugins: withSeams(seams), waitForIndex: false });
      started(h.workspace);
      await whenIndexed(h);
      assert.ok(deleted, "the build waited for the scan's end");
      const { body } = await search(h, { q: "wombat" });
      assert.is(body.total, 0, "the deleted file is not searchable");
      assert.is(body.stats.lastRefresh?.builder, builderProcessMinFiles === 1 ? "child-process" : "main-thread");
      // Every file but the deleted one and the three skipped (too large, binary, not UTF-8).
      assert.is(body.stats.totalFiles, Object.keys(files).length - 3);
      assert.ok((await search(h, { q: "capybara" })).body.total > 0, "the other files are");
    } finally {
      await stopAll(h);
    }
  });
}

t.run();
