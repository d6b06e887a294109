// The compact index must rank as minisearch's own index did (same results, same scores,
// with prefixes and typos), after adds, removals and replacements, and across its codec.
// minisearch's `addAll` index with the options the plugin used before is the reference.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import MiniSearch, { type Options, type SearchOptions } from "minisearch";
import { CompactIndex } from "../../../plugins/search/domain/compact-index.ts";
import { parseFile, type SearchDocument } from "../../../plugins/search/domain/document.ts";
import { processTerm, queryTerms } from "../../../plugins/search/domain/query.ts";
import { CODEC, decodeIndex, encodeIndex, encodeIndexParts } from "../../../plugins/search/domain/index-codec.ts";
import { runNow } from "../../../plugins/search/domain/slicing.ts";

const t = suite("search: compact index");

const REFERENCE_OPTIONS: Options<SearchDocument> = { idField: "id", fields: ["title", "name", "content"], storeFields: ["title", "category"], processTerm };
/** The ranking options the plugin gave minisearch; typo tolerance only for words the index does not hold. */
const referenceSearch = (ms: MiniSearch<SearchDocument>): SearchOptions => ({
  boost: { title: 4, name: 2 },
  prefix: (term) => term.length >= 3,
  fuzzy: (term) => (term.length >= 4 && !hasExact(ms, term) ? 0.2 : false),
  maxFuzzy: 2,
  combineWith: "AND",
});
/** Whether `term` is a word of the reference index (its term tree, as the plugin checked before). */
const hasExact = (ms: MiniSearch<SearchDocument>, term: string) => (ms as unknown as { _index: { has(t: string): boolean } })._index.has(term);

const words = "agent squad memory deploy deployment review approval budget strategy tapir lemur okapi Zebulon zebra kubernetes cluster".split(" ");
const docs = Array.from({ length: 300 }, (_, i) => {
  const separator = i % 3 === 0 ? ", " : " ";
  const body = Array.from({ length: 40 + (i % 17) }, (_, k) => words[(i * 7 + k * k) % words.length]).join(separator);
  return parseFile(`dir${i % 5}/file-${i}.md`, `# ${words[i % words.length]} title ${i}\n\nthe ${body}\n`).document;
});
const queries = ["agent", "deplo", "zebulom", "kubernetis", "tapir lemur", "squad memory budget", "title 12", "kubernetes", "nothingmatches"];

const renderReference = (ms: MiniSearch<SearchDocument>) =>
  queries.map((q) =>
    ms
      .search(q, referenceSearch(ms))
      .map((r) => `${r.id}:${r.score.toFixed(9)}:${r.title}:${r.category}`)
      .join("|"),
  );
const render = (index: CompactIndex) =>
  queries.map((q) =>
    index
      .search(queryTerms(q).map((w) => w.toLowerCase()))
      .map((r) => `${r.path}:${r.score.toFixed(9)}:${r.title}:${r.category}`)
      .join("|"),
  );

t("same results and scores as minisearch's addAll index (title boost, prefixes, typos)", () => {
  const reference = new MiniSearch(REFERENCE_OPTIONS);
  reference.addAll(docs);
  const index = CompactIndex.build(docs);
  assert.is(index.documentCount, reference.documentCount);
  const expected = renderReference(reference);
  assert.ok(expected[2]!.length > 0 && expected[3]!.length > 0, "the typo queries match something");
  assert.ok(expected[1]!.length > 0, "the prefix query matches something");
  assert.equal(render(index), expected);
});

t("a snapshot of a build in progress ranks as a build of the documents added so far, also after the build goes on", () => {
  const builder = CompactIndex.builder();
  docs.slice(0, 150).forEach((d) => builder.add(d));
  const snapshot = runNow(builder.snapshotSteps());
  const expected = render(CompactIndex.build(docs.slice(0, 150)));
  assert.ok(expected.filter(Boolean).length >= 6, "most queries match something");
  assert.equal(render(snapshot), expected);
  runNow(snapshot.warmSteps()); // The typo tree is shared with the builder and kept current by later adds.
  docs.slice(150).forEach((d) => builder.add(d));
  builder.add(parseFile("late/words.md", "# Late\n\nquetzal axolotl kubernetis\n").document);
  assert.equal(render(snapshot), expected, "later documents and terms are not seen by the snapshot");
  const finished = runNow(builder.finishSteps());
  assert.equal(render(finished), render(CompactIndex.build([...docs, parseFile("late/words.md", "# Late\n\nquetzal axolotl kubernetis\n").document])));
  assert.is(finished.search(["quetzl"]).length, 1, "typo lookups on the finished index see terms added after the warm-up");
});

t("typos and prefixes: a near-miss of 4+ letters and a 3-letter prefix find the word", () => {
  const index = CompactIndex.build(docs);
  assert.ok(index.search(["kubernetis"]).length > 0);
  assert.ok(index.search(["kub"]).length > 0);
  assert.is(index.search(["ku"]).length, 0, "2 letters are not a prefix");
  assert.is(index.search(["zbra"]).length > 0, true);
});

t("adds, removals and replacements rank as a fresh build of the same documents", () => {
  const index = CompactIndex.build(docs);
  index.remove(docs[0]!.id);
  const replaced = { ...docs[1]!, content: "replaced with a tapir" };
  index.upsert(replaced);
  const added = parseFile("new/one.md", "# Fresh\n\nlemur again okapi\n").document;
  index.upsert(added);
  const expected = docs.slice(2);
  const fresh = CompactIndex.build([...expected, replaced, added]);
  const byPath = (rendered: string[]) => rendered.map((line) => line.split("|").sort().join("|"));
  assert.equal(byPath(render(index)), byPath(render(fresh)));
  index.compact();
  assert.equal(byPath(render(index)), byPath(render(fresh)), "same after compaction");
  assert.is(index.documentCount, fresh.documentCount);
});

t("each returned hit names the index terms it matched (for its excerpt), in the base, the delta and after compaction", () => {
  const index = CompactIndex.build(docs);
  index.upsert(parseFile("new/late.md", "# Late\n\nzebras only\n").document);
  for (const round of ["before compaction", "after compaction"]) {
    const hits = index.search(["zeb"], { termsFor: 1_000 });
    assert.ok(hits.length > 10, round);
    for (const hit of hits) {
      assert.ok(hit.terms.length > 0 && hit.terms.every((term) => term.startsWith("zeb")), `${round}: ${hit.path} ${hit.terms}`);
    }
    assert.equal(hits.find((h) => h.path === "new/late.md")?.terms, ["zebras"], round);
    const withZebulon = docs.filter((d) => /zebulon/i.test(`${d.title} ${d.content}`)).map((d) => d.id);
    assert.ok(hits.filter((h) => h.terms.includes("zebulon")).every((h) => withZebulon.includes(h.path)), round);
    assert.is(hits.filter((h) => h.terms.includes("zebulon")).length, withZebulon.length, round);
    index.compact();
  }
});

t("an empty index is a working empty index", () => {
  const empty = CompactIndex.build([]);
  assert.is(empty.documentCount, 0);
  assert.equal(empty.search(["agent"]), []);
  empty.upsert(parseFile("a.md", "# A\n\nokapi\n").document);
  assert.is(empty.search(["okapi"]).length, 1);
});

t("the codec round-trips an index with removed, replaced and added documents", () => {
  const index = CompactIndex.build(docs);
  for (let i = 0; i < 40; i++) index.remove(docs[i]!.id);
  index.upsert({ ...docs[50]!, content: "replaced with a tapir" });
  index.upsert(parseFile("new/one.md", "# Fresh\n\nlemur again\n").document);
  const before = render(index);
  const { codec, text, data } = encodeIndex(index);
  assert.is(codec, CODEC.compact);
  const decoded = decodeIndex(codec, text, data);
  assert.is(decoded.documentCount, index.documentCount);
  assert.equal(render(decoded), before);
  decoded.upsert(parseFile("new/two.md", "# Second\n\nokapiii\n").document);
  assert.ok(decoded.search(["okapiii"]).some((r) => r.path === "new/two.md"));
});

t("an index saved in pieces of whole terms loads from them as they lie, and from any other cut of the same blob; loaded, it changes and saves as a built one", () => {
  // Hits with the terms each matched (the excerpts' terms come from the postings too).
  const hits = (index: CompactIndex) => queries.map((q) => index.search(queryTerms(q).map((w) => w.toLowerCase())));
  const change = (index: CompactIndex) => {
    index.remove(docs[3]!.id);
    index.upsert({ ...docs[9]!, content: "now a tapir and an okapi" });
    index.upsert(parseFile("new/three.md", "# Third\n\nzebra lemur\n").document);
  };
  const built = CompactIndex.build(docs);
  const before = hits(built);
  const { codec, text, data } = encodeIndexParts(built, 256);
  const pieces = data.slice(3);
  assert.ok(pieces.length > 5, `the postings in ${pieces.length} pieces`);
  assert.ok(Buffer.concat(data).equals(encodeIndex(built).data), "joined, the parts are the one-blob format");
  const loaded = decodeIndex(codec, text, data);
  assert.equal(hits(loaded), before);
  const cut = (blob: Buffer, bytes: number) => Array.from({ length: Math.ceil(blob.length / bytes) }, (_, n) => blob.subarray(n * bytes, n * bytes + bytes));
  // The postings are used where they lie, not joined into a copy: what their parts hold later
  // is what the index reads. Also when the store split a long array (the field lengths of
  // 65,536 documents fill a part) over several parts.
  for (const saved of [data, [...data.slice(0, 3).flatMap((part) => cut(part, 40)), ...data.slice(3)]]) {
    const own = saved.map((part) => Buffer.from(part));
    const probe = decodeIndex(codec, text, own);
    assert.equal(hits(probe), before);
    for (const part of own.slice(-pieces.length)) part.fill(0);
    assert.not.equal(hits(probe), before, "the index reads the parts themselves");
  }
  // An index saved before the pieces were term-aligned: 100-byte cuts of the same blob.
  assert.equal(hits(decodeIndex(codec, text, cut(Buffer.concat(data), 100))), before);
  // Saved again unchanged (its base still in pieces), it round-trips.
  const resaved = encodeIndexParts(loaded, 1024);
  assert.equal(hits(decodeIndex(resaved.codec, resaved.text, resaved.data)), before);
  change(built);
  change(loaded);
  const after = hits(built);
  assert.equal(hits(loaded), after);
  const compacted = encodeIndexParts(loaded, 256);
  assert.equal(hits(decodeIndex(compacted.codec, compacted.text, compacted.data)), after);
});

t("malformed persisted data throws (the caller rebuilds)", () => {
  const ints = (...values: number[]) => Buffer.from(new Int32Array(values).buffer);
  const one = '{"paths":["a.md"],"titles":["A"],"categories":["other"],"terms":["x"]}';
  const cases: [string, string, Buffer | null][] = [
    [CODEC.compact, "{not json", ints(0, 0, 0, 0)],
    [CODEC.compact, one, ints(1, 1, 2, 1, 0, 0, 0, 0, 2, 0, 1, 7)], // trailing values
    [CODEC.compact, one, ints(1, 1, 2, 1, 0, 0, 0, 0, 2, 40, 1)], // posting of a document that does not exist
    [CODEC.compact, one, ints(1, 1, 2, 1, 0, 0, 0, 0, 4, 0, 1)], // offsets do not cover the postings
    [CODEC.compact, '{"paths":[1],"titles":[],"categories":[],"terms":[]}', ints(1, 0, 0)],
    [CODEC.compact, '{"paths":["a.md"],"titles":["A"],"categories":["nope"],"terms":[]}', ints(1, 0, 0, 1, 0, 0, 0, 0)],
    [CODEC.compact, one, null],
    [CODEC.compact, one, Buffer.from([1, 2, 3])],
    ["other", "{}", null],
  ];
  for (const [codec, text, data] of cases) assert.throws(() => decodeIndex(codec, text, data), `${codec} ${text}`);
  // The well-formed variant of the cases above decodes.
  assert.is(decodeIndex(CODEC.compact, one, ints(1, 1, 2, 1, 0, 0, 0, 0, 2, 0, 1)).search(["x"]).length, 1);
});

t.run();
