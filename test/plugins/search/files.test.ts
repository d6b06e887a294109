// Which files the index takes: huge, binary and invalid UTF-8 files are skipped, malformed
// YAML is reported and indexed as text, hidden/vendor directories and symlinks leaving the
// workspace are never read; a full re-index drops deleted files.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { search, startWithFiles } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost; outside: string }>("search: files");

const MiB = 1024 * 1024;

t.before(async (ctx) => {
  ctx.outside = mkdtempSync(join(tmpdir(), "muster-outside-"));
  writeFileSync(join(ctx.outside, "secret.md"), "# Outside\n\nexfiltrate the capybara\n");
  mkdirSync(join(ctx.outside, "dir"));
  writeFileSync(join(ctx.outside, "dir", "inner.md"), "# Inner\n\ncapybara inside an outside folder\n");
  ctx.h = await startWithFiles({
    "docs/ok.md": "# Fine\n\nthe pangolin is fine\n",
    "docs/huge.md": `# Huge\n\npangolin ${"x".repeat(MiB)}\n`,
    "docs/binary.md": Buffer.concat([Buffer.from("# Binary\n\npangolin "), Buffer.from([0, 1, 2, 0, 255])]),
    "docs/latin1.md": Buffer.from([0x23, 0x20, 0x70, 0x61, 0x6e, 0x67, 0x6f, 0x6c, 0x69, 0x6e, 0x20, 0xe9, 0xff, 0xfe]),
    "company/broken.yaml": "title: [unclosed\n  ocelot: : :\n\t- bad indent\n",
    "docs/broken-front.md": "---\ntitle: [unclosed\n---\n\n# Still here\n\nthe ocelot again\n",
    "docs/good.yaml": "title: Good YAML\nanimal: ocelot\n",
    ".hidden/secret.md": "# Hidden\n\naxolotl in a hidden folder\n",
    "docs/.dotfile.md": "# Dot\n\naxolotl in a dot file\n",
    "node_modules/pkg/README.md": "# Pkg\n\naxolotl in node_modules\n",
    "vendor/lib/notes.md": "# Vendor\n\naxolotl vendored\n",
    "docs/readme.txt": "axolotl in a text file\n",
  });
  const ws = ctx.h.workspace;
  symlinkSync(join(ctx.outside, "secret.md"), join(ws, "docs", "link-out.md"));
  symlinkSync(join(ctx.outside, "dir"), join(ws, "docs", "dir-out"));
  symlinkSync(join(ws, "docs", "ok.md"), join(ws, "docs", "link-in.md"));
  symlinkSync(join(ws, "docs"), join(ws, "docs", "loop"));
  ctx.h.host.logger.level = "silent";
  const re = await ctx.h.json<ApiBody<"postSearch">>("/api/search", { method: "POST" });
  assert.is(re.status, 200);
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
  rmSync(ctx.outside, { recursive: true, force: true });
});

t("files over 1 MiB, binaries and invalid UTF-8 with markdown names are skipped and counted", async ({ h }) => {
  const res = await search(h, { q: "pangolin" });
  const paths = res.body.results.map((r) => r.path).sort();
  assert.equal(paths, ["docs/link-in.md", "docs/ok.md"]);
  assert.equal(res.body.stats.skipped.tooLarge, 1);
  assert.equal(res.body.stats.skipped.binary, 1);
  assert.equal(res.body.stats.skipped.invalidUtf8, 1);
});

t("malformed YAML and front matter are reported, indexed as text, and the rest is intact", async ({ h }) => {
  const res = await search(h, { q: "ocelot" });
  const paths = res.body.results.map((r) => r.path).sort();
  assert.equal(paths, ["company/broken.yaml", "docs/broken-front.md", "docs/good.yaml"]);
  const malformed = res.body.stats.malformed;
  assert.is(malformed.count, 2);
  assert.equal(malformed.files.map((f) => f.path).sort(), ["company/broken.yaml", "docs/broken-front.md"]);
  for (const f of malformed.files) assert.match(f.problem, /^malformed (YAML|front matter): /);
  assert.is(res.body.results.find((r) => r.path === "docs/broken-front.md")?.title, "Still here");
  assert.is(res.body.results.find((r) => r.path === "docs/good.yaml")?.title, "Good YAML");
  assert.is((await search(h, { q: "pangolin" })).body.count, 2, "other files unaffected");
});

t("hidden and vendor directories, dot files and other extensions are not indexed", async ({ h }) => {
  const res = await search(h, { q: "axolotl" });
  assert.is(res.status, 200);
  assert.is(res.body.count, 0);
});

t("symlinks leaving the workspace are not followed; links inside it are, loops end", async ({ h }) => {
  const res = await search(h, { q: "capybara" });
  assert.is(res.body.count, 0);
  assert.ok(res.body.stats.skipped.symlinksOutside >= 2);
  const inside = await search(h, { q: "pangolin" });
  assert.ok(inside.body.results.some((r) => r.path === "docs/link-in.md"));
});

t("a file replaced by a link to the outside after indexing leaks no excerpt", async ({ h, outside }) => {
  const target = join(h.workspace, "docs", "ok.md");
  unlinkSync(target);
  symlinkSync(join(outside, "secret.md"), target);
  assert.ok((await search(h, { q: "capybara" })).body.count === 0, "the link target is not indexed");
  const res = await search(h, { q: "pangolin" });
  const hit = res.body.results.find((r) => r.path === "docs/ok.md");
  if (hit) assert.not.ok(hit.excerpt.includes("capybara"), hit.excerpt);
  unlinkSync(target);
  writeFileSync(target, "# Fine\n\nthe pangolin is fine\n");
});

t("POST re-indexes: deleted files disappear, new ones appear; concurrent calls share one run", async ({ h }) => {
  const before = await h.json<ApiBody<"postSearch">>("/api/search", { method: "POST" });
  unlinkSync(join(h.workspace, "docs", "good.yaml"));
  writeFileSync(join(h.workspace, "docs", "new.md"), "# New\n\nan ocelot arrives\n");
  const [a, b] = await Promise.all([h.json<ApiBody<"postSearch">>("/api/search", { method: "POST" }), h.json<ApiBody<"postSearch">>("/api/search", { method: "POST" })]);
  for (const r of [a, b]) {
    assert.is(r.status, 200);
    assert.is(r.body.ok, true);
    assert.type(r.body.duration, "number");
  }
  assert.is(a.body.filesIndexed, b.body.filesIndexed);
  assert.is(a.body.filesIndexed, before.body.filesIndexed);
  const paths = (await search(h, { q: "ocelot" })).body.results.map((r) => r.path).sort();
  assert.equal(paths, ["company/broken.yaml", "docs/broken-front.md", "docs/new.md"]);
});

t("POST refuses a body with fields or of the wrong type, and re-indexes nothing then", async ({ h }) => {
  const before = (await search(h, { q: "ocelot" })).body.stats;
  for (const [body, type] of [['{"full":true}', "application/json"], ["[]", "application/json"], ['{"a":', "application/json"], ["full=1", "text/plain"]]) {
    const res = await h.json<ApiBody<"postSearch">>("/api/search", { method: "POST", body, headers: { "content-type": type } });
    assert.ok(res.status === 400 || res.status === 415, `${body} ${res.status}`);
    assert.ok(["VALIDATION_FAILED", "INVALID_JSON", "UNSUPPORTED_MEDIA_TYPE"].includes(String(res.body.error?.code)), body);
  }
  const after = (await search(h, { q: "ocelot" })).body.stats;
  // Not `indexedAt`: it also moves when a watcher change lands (the files the last test wrote in
  // docs/ are reported too); `lastRefresh` (with its `finishedAt`) changes only with a build.
  assert.equal(after.lastRefresh, before.lastRefresh);
  const empty = await h.json<ApiBody<"postSearch">>("/api/search", { method: "POST", body: {} });
  assert.is(empty.status, 200);
});

t.run();
