import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestHost, removeHome, withTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost; outside: string }>("memory: workspace documents");

const write = (h: TestHost, rel: string, content: string | Uint8Array, minutesAgo: number) => {
  const abs = join(h.workspace, rel);
  mkdirSync(join(abs, ".."), { recursive: true });
  writeFileSync(abs, content);
  const when = new Date(Date.now() - minutesAgo * 60_000);
  utimesSync(abs, when, when);
};

t.before(async (ctx) => {
  ctx.h = await startTestHost({ config: { scaffoldWorkspace: false, pluginConfig: { memory: { docsContentMaxBytes: 512 } } } });
  rmSync(ctx.h.workspace, { recursive: true, force: true });
  mkdirSync(ctx.h.workspace, { recursive: true });
  ctx.outside = mkdtempSync(join(tmpdir(), "muster-outside-"));
  writeFileSync(join(ctx.outside, "leak.md"), "TOP SECRET");
  const h = ctx.h;
  write(h, "memory/2026-11-21.md", "daily", 1);
  write(h, "company/knowledge_base/insights/tips.md", "insight", 2);
  write(h, "meetings/transcript-01.md", "transcript", 3);
  write(h, "company/knowledge_base/decisions/adr-0001.md", "knowledge first", 4);
  write(h, "architecture/adr-0002-sqlite.md", "an adr", 5);
  write(h, "reports/weekly.yaml", "week: 47", 6);
  write(h, "projects/demo/board/tasks.yml", "- id: T1", 7);
  write(h, "roadmap.md", "not an ADR", 8);
  write(h, "notes.txt", "not a document", 0);
  write(h, "image.png", "binary", 0);
  write(h, ".git/HEAD.md", "hidden", 0);
  write(h, "node_modules/pkg/README.md", "vendor", 0);
  write(h, "blob.md", Buffer.from([0x00, 0x01, 0x02]), 9);
  write(h, "big.md", "word ".repeat(1000), 10);
  symlinkSync(join(ctx.outside, "leak.md"), join(h.workspace, "leak.md"));
  symlinkSync(ctx.outside, join(h.workspace, "linked-dir"));
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
  rmSync(ctx.outside, { recursive: true, force: true });
});

t("markdown and YAML (.yaml and .yml) only, newest first, categories from the path", async ({ h }) => {
  const res = await h.json<ApiBody<"getDocs">>("/api/docs");
  assert.is(res.status, 200);
  assert.ok(Array.isArray(res.body));
  const byPath = Object.fromEntries(res.body.map((d) => [d.path, d.category]));
  assert.equal(res.body.map((d) => d.path), [
    "memory/2026-11-21.md",
    "company/knowledge_base/insights/tips.md",
    "meetings/transcript-01.md",
    "company/knowledge_base/decisions/adr-0001.md",
    "architecture/adr-0002-sqlite.md",
    "reports/weekly.yaml",
    "projects/demo/board/tasks.yml",
    "roadmap.md",
    "blob.md",
    "big.md",
  ]);
  assert.equal(byPath, {
    "memory/2026-11-21.md": "Journal",
    "company/knowledge_base/insights/tips.md": "Insights",
    "meetings/transcript-01.md": "Transcription",
    "company/knowledge_base/decisions/adr-0001.md": "Insights",
    "architecture/adr-0002-sqlite.md": "ADR",
    "reports/weekly.yaml": "Report",
    "projects/demo/board/tasks.yml": "Other",
    "roadmap.md": "Other",
    "blob.md": "Other",
    "big.md": "Other",
  });
  const first = res.body[0];
  assert.ok(first, "first is there");
  assert.equal(Object.keys(first).sort(), ["binary", "category", "content", "modifiedAt", "name", "path", "size", "truncated", "wordCount"]);
  assert.is(first.name, "2026-11-21.md");
  assert.is(first.content, "daily");
  assert.not.ok(JSON.stringify(res.body).includes("TOP SECRET"));
});

t("content is capped per document and flagged; binary files are flagged with empty content", async ({ h }) => {
  const res = await h.json<ApiBody<"getDocs">>("/api/docs");
  const big = res.body.find((d) => d.path === "big.md");
  assert.ok(big, "big is there");
  assert.is(big.truncated, true);
  assert.is(big.content.length, 512);
  assert.is(big.wordCount, 1000);
  const blob = res.body.find((d) => d.path === "blob.md");
  assert.ok(blob, "blob is there");
  assert.is(blob.binary, true);
  assert.is(blob.content, "");
});

t("limit and category filter; bad values refused", async ({ h }) => {
  const two = await h.json<ApiBody<"getDocs">>("/api/docs?limit=2");
  assert.is(two.body.length, 2);
  const adr = await h.json<ApiBody<"getDocs">>("/api/docs?category=ADR");
  assert.equal(adr.body.map((d) => d.path), ["architecture/adr-0002-sqlite.md"]);
  for (const q of ["limit=0", "limit=201", "category=Secrets", "category=adr", "dir=..%2F..", "limit=-1"]) {
    const res = await h.json<ApiBody<"getDocs">>(`/api/docs?${q}`);
    assert.is(res.status, 400, q);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", q);
  }
});

t("path: one document with the single-file cap; unlisted or missing paths give none; leaving the workspace is refused", async ({ h }) => {
  const one = await h.json<ApiBody<"getDocs">>("/api/docs?path=architecture%2Fadr-0002-sqlite.md");
  assert.is(one.status, 200);
  assert.equal(one.body.map((d) => [d.path, d.name, d.category, d.content]), [["architecture/adr-0002-sqlite.md", "adr-0002-sqlite.md", "ADR", "an adr"]]);
  // The list cuts big.md at docsContentMaxBytes (512); one document gets contentMaxBytes (256 KiB).
  const big = await h.json<ApiBody<"getDocs">>("/api/docs?path=big.md");
  assert.is(big.body[0]?.content.length, 5000);
  assert.is(big.body[0]?.truncated, false);
  for (const path of ["notes.txt", ".git/HEAD.md", "node_modules/pkg/README.md", "missing.md", "memory", "leak.md"]) {
    const none = await h.json<ApiBody<"getDocs">>(`/api/docs?path=${encodeURIComponent(path)}`);
    if (path === "leak.md") assert.is(none.status, 400, path);
    else assert.equal([none.status, none.body], [200, []], path);
  }
  const otherCategory = await h.json<ApiBody<"getDocs">>("/api/docs?path=roadmap.md&category=ADR");
  assert.equal(otherCategory.body, []);
  for (const path of ["../outside.md", "/etc/passwd.md"]) {
    const refused = await h.json<ApiBody<"getDocs">>(`/api/docs?path=${encodeURIComponent(path)}`);
    assert.is(refused.status, 400, path);
    assert.is(refused.body.error?.code, "PATH_OUTSIDE_WORKSPACE", path);
  }
});

t("index: every document's metadata without its content, newest first, counts per category over the whole workspace", async ({ h }) => {
  const res = await h.json<ApiBody<"getDocsIndex">>("/api/docs/index");
  assert.is(res.status, 200);
  const listed = await h.json<ApiBody<"getDocs">>("/api/docs");
  assert.equal(res.body.documents.map((d) => d.path), listed.body.map((d) => d.path), "the same files in the same order as GET /api/docs");
  assert.equal(Object.keys(res.body.documents[0]!).sort(), ["category", "modifiedAt", "name", "path", "size"]);
  const big = res.body.documents.find((d) => d.path === "big.md");
  assert.is(big?.size, 5000);
  assert.is(res.body.total, 10);
  assert.equal(res.body.counts, { Journal: 1, Insights: 2, Transcription: 1, ADR: 1, Report: 1, Other: 4 });
  const adr = await h.json<ApiBody<"getDocsIndex">>("/api/docs/index?category=Insights&limit=1");
  assert.equal([adr.body.total, adr.body.documents.map((d) => d.path)], [2, ["company/knowledge_base/insights/tips.md"]]);
  assert.equal(adr.body.counts, res.body.counts, "counts cover every category whatever the filter");
  for (const q of ["limit=0", "limit=10001", "category=adr", "path=roadmap.md"]) {
    const refused = await h.json<ApiBody<"getDocsIndex">>(`/api/docs/index?${q}`);
    assert.is(refused.status, 400, q);
    assert.is(refused.body.error?.code, "VALIDATION_FAILED", q);
  }
});

t("an empty workspace lists nothing", async ({ h }) => {
  await withTestHost({ config: { scaffoldWorkspace: false } }, async (empty) => {
    rmSync(empty.workspace, { recursive: true, force: true });
    mkdirSync(empty.workspace);
    const res = await empty.json<ApiBody<"getDocs">>("/api/docs");
    assert.is(res.status, 200);
    assert.equal(res.body, []);
  });
  assert.ok(h.url);
});

t.run();
