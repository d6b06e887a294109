// GET /api/search through HTTP on real files: ranking, prefix and typo matching,
// categories, limit, excerpts, and refused queries (with nothing changed).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { search, startWithFiles } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost }>("search: queries");

const filler = (n: number) => Array.from({ length: n }, (_, i) => `plain filler sentence number ${i} about nothing.`).join(" ");
const emoji = "😀";

const files: Record<string, string> = {
  "company/knowledge_base/zebulon-handbook.md": "# Zebulon handbook\n\nHow the crew works.\n",
  "company/knowledge_base/notes.md": `# Miscellaneous notes\n\nWe once met zebulon at a conference. ${filler(3)}\n`,
  "memory/2026-11-20.md": "# Daily note\n\nDiscussed the quarkle migration with zebulon.\n",
  "projects/apollo/board/tasks.yaml": "title: Apollo board\nitems:\n  - quarkle rollout\n",
  "docs/centred.md": `# Centred\n\n${filler(40)} the marmoset appears here ${filler(40)}\n`,
  "docs/emoji.md": `# Emoji\n\n${emoji.repeat(150)} narwhal ${emoji.repeat(150)}\n`,
  "docs/birds-a.md": "# Birds\n\na kestrel nest\n",
  "docs/birds-b.md": "# Misspelt birds\n\na kestral nest\n",
  "docs/frontmatter.md": "---\ntitle: Front matter title\ntags: [a, b]\n---\n\nBody mentions the okapi.\n",
};
for (let i = 0; i < 30; i++) files[`squads/bulk/file-${String(i).padStart(2, "0")}.md`] = `# Bulk ${i}\n\nThe wombat count is ${i}.\n`;

t.before(async (ctx) => {
  ctx.h = await startWithFiles(files);
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("the envelope carries query, count, results and stats", async ({ h }) => {
  const res = await search(h, { q: "  zebulon  " });
  assert.is(res.status, 200);
  assert.is(res.body.ok, true);
  assert.is(res.body.query, "zebulon");
  assert.is(res.body.count, res.body.results.length);
  assert.is(res.body.count, 3);
  assert.is(res.body.total, 3);
  for (const r of res.body.results) {
    assert.type(r.path, "string");
    assert.type(r.score, "number");
    assert.type(r.excerpt, "string");
    assert.type(r.title, "string");
    assert.type(r.category, "string");
  }
  assert.ok(res.body.stats.totalFiles >= Object.keys(files).length);
  assert.ok(!Number.isNaN(Date.parse(String(res.body.stats.indexedAt))));
});

t("a title match ranks above body matches; scores are descending", async ({ h }) => {
  const res = await search(h, { q: "zebulon" });
  assert.is(res.body.results[0]?.path, "company/knowledge_base/zebulon-handbook.md");
  assert.is(res.body.results[0]?.title, "Zebulon handbook");
  const scores = res.body.results.map((r) => r.score);
  assert.equal(scores, [...scores].sort((a: number, b: number) => b - a));
});

t("prefixes and typos match", async ({ h }) => {
  const prefix = await search(h, { q: "zebul" });
  assert.is(prefix.body.count, 3);
  const typo = await search(h, { q: "zebulom" });
  assert.is(typo.body.count, 3, "one wrong letter");
  const swapped = await search(h, { q: "quartle" });
  assert.equal(swapped.body.results.map((r) => r.path).sort(), ["memory/2026-11-20.md", "projects/apollo/board/tasks.yaml"]);
  const words = await search(h, { q: "zebulon quarkle" });
  assert.equal(words.body.results.map((r) => r.path), ["memory/2026-11-20.md"], "several words: files holding all of them");
});

t("typo tolerance applies to words the workspace does not contain as typed", async ({ h }) => {
  const exact = await search(h, { q: "kestrel" });
  assert.equal(exact.body.results.map((r) => r.path), ["docs/birds-a.md"], "an existing word is taken as meant");
  const typo = await search(h, { q: "kestrol" });
  assert.equal(typo.body.results.map((r) => r.path).sort(), ["docs/birds-a.md", "docs/birds-b.md"], "an unknown word matches both neighbours");
});

t("categories come from the path and filter results", async ({ h }) => {
  const all = await search(h, { q: "zebulon" });
  const byPath = Object.fromEntries(all.body.results.map((r) => [r.path, r.category]));
  assert.equal(byPath, {
    "company/knowledge_base/zebulon-handbook.md": "knowledge",
    "company/knowledge_base/notes.md": "knowledge",
    "memory/2026-11-20.md": "memory",
  });
  const memory = await search(h, { q: "zebulon", category: "memory" });
  assert.equal(memory.body.results.map((r) => r.path), ["memory/2026-11-20.md"]);
  const projects = await search(h, { q: "quarkle", category: "projects" });
  assert.equal(projects.body.results.map((r) => [r.path, r.title]), [["projects/apollo/board/tasks.yaml", "Apollo board"]]);
  const none = await search(h, { q: "zebulon", category: "skills" });
  assert.is(none.body.count, 0);
});

t("limit defaults to 20 and caps the results; total counts every match", async ({ h }) => {
  const dflt = await search(h, { q: "wombat" });
  assert.is(dflt.body.count, 20);
  assert.is(dflt.body.total, 30);
  const five = await search(h, { q: "wombat", limit: 5 });
  assert.is(five.body.count, 5);
  const hundred = await search(h, { q: "wombat", limit: 100 });
  assert.is(hundred.body.count, 30);
});

t("the excerpt is centred on the match, bounded, and never splits a surrogate pair", async ({ h }) => {
  const res = await search(h, { q: "marmoset" });
  const [first] = res.body.results;
  assert.ok(first, "a result");
  const { excerpt } = first;
  assert.ok(excerpt.includes("marmoset"), excerpt);
  assert.ok(excerpt.startsWith("…") && excerpt.endsWith("…"), excerpt);
  assert.ok(excerpt.length <= 242, String(excerpt.length));
  const emojiRes = await search(h, { q: "narwhal" });
  const e = String(emojiRes.body.results[0]?.excerpt);
  assert.ok(e.includes("narwhal"));
  assert.not.ok(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(e), "no lone surrogate");
  const fm = await search(h, { q: "okapi" });
  assert.is(fm.body.results[0]?.title, "Front matter title");
  assert.ok(String(fm.body.results[0]?.excerpt).startsWith("Body mentions the okapi"), fm.body.results[0]?.excerpt);
});

t("short, punctuation-only and malformed queries are refused with stable codes; nothing changes", async ({ h }) => {
  const before = (await search(h, { q: "zebulon" })).body.stats;
  const tooShort = ["a", " a ", "!!", "?!.,;", "a!", "   ", "", "é"];
  for (const q of tooShort) {
    const res = await search(h, { q });
    assert.is(res.status, 400, JSON.stringify(q));
    assert.is(res.body.error?.code, "SEARCH_QUERY_TOO_SHORT", JSON.stringify(q));
  }
  const invalid: string[] = [
    "",
    "q=zebulon&category=bogus",
    "q=zebulon&category=..%2Fmemory",
    "q=zebulon&category=",
    "q=zebulon&limit=0",
    "q=zebulon&limit=101",
    "q=zebulon&limit=abc",
    "q=zebulon&limit=2.5",
    "q=zebulon&bogus=1",
    "q=zebulon&q=other",
    `q=${"x".repeat(501)}`,
  ];
  for (const qs of invalid) {
    const res = await h.json<ApiBody<"getSearch">>(`/api/search?${qs}`);
    assert.is(res.status, 400, qs);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", qs);
    assert.ok(Array.isArray(res.body.error?.details), qs);
  }
  const after = (await search(h, { q: "zebulon" })).body.stats;
  assert.is(after.totalFiles, before.totalFiles);
  assert.is(after.indexedAt, before.indexedAt);
});

t("two-letter queries, unicode and regex metacharacters are answered, never a 500", async ({ h }) => {
  for (const q of ["ab", "zé", "(zebulon", "zebulon*", "[a-z]+", "\\d{3}", "%00zebulon", "zebulon\u202e", `${emoji}${emoji} zebulon`, "SELECT * FROM search_files"]) {
    const res = await search(h, { q });
    assert.is(res.status, 200, q);
  }
  const rtl = await search(h, { q: "zebulon\u202e" });
  assert.ok(rtl.body.count >= 1);
});

t("no parameter reaches outside the workspace: results are workspace-relative paths", async ({ h }) => {
  for (const q of ["../../etc/passwd", "/etc/passwd", "..\\..\\windows", "passwd root"]) {
    const res = await search(h, { q });
    assert.is(res.status, 200, q);
    for (const r of res.body.results) {
      assert.not.ok(r.path.startsWith("/") || r.path.split("/").includes(".."), r.path);
    }
    assert.not.ok(JSON.stringify(res.body).includes("root:x:0:0"), q);
  }
});

t("stop words are neither indexed nor searched", async ({ h }) => {
  const only = await search(h, { q: "the about" });
  assert.is(only.status, 200);
  assert.is(only.body.count, 0, "files full of 'the' and 'about' do not match them");
  const mixed = await search(h, { q: "the zebulon" });
  const plain = await search(h, { q: "zebulon" });
  assert.equal(mixed.body.results, plain.body.results);
});

t("repeated words are searched once and only the first 12 distinct words count", async ({ h }) => {
  const once = await search(h, { q: "wombat" });
  const repeated = await search(h, { q: Array(28).fill("wombat").join(" ") });
  assert.is(repeated.status, 200);
  assert.equal(repeated.body.results.map((r: { path: string }) => r.path), once.body.results.map((r: { path: string }) => r.path));
  assert.equal(repeated.body.results.map((r: { score: number }) => r.score), once.body.results.map((r: { score: number }) => r.score));
  // 12 filler words that match nothing, then a real one: the 13th word is not searched.
  const padded = await search(h, { q: `${Array.from({ length: 12 }, (_, i) => `zz${i}q`).join(" ")} wombat` });
  assert.is(padded.status, 200);
  assert.is(padded.body.count, 0);
  const tooLong = await search(h, { q: "a".repeat(201) });
  assert.is(tooLong.status, 400);
});

t.run();
