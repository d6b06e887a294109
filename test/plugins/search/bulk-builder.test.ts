// The bulk builder must produce the index `addAll` would: same results, same scores, and an
// instance that later add/discard/replace and toJSON/loadJSON work on. Guards its use of
// minisearch's term tree against a minisearch upgrade.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import MiniSearch from "minisearch";
import { BulkIndexBuilder } from "../../../plugins/search/domain/bulk-builder.ts";
import { parseFile } from "../../../plugins/search/domain/document.ts";
import { INDEX_OPTIONS, SEARCH_OPTIONS } from "../../../plugins/search/domain/query.ts";
import { CODEC, decodeIndex, encodeIndex } from "../../../plugins/search/domain/index-codec.ts";

const t = suite("search: bulk index builder");

const words = "agent squad memory deploy deployment review approval budget strategy tapir lemur okapi Zebulon zebra kubernetes cluster".split(" ");
const docs = Array.from({ length: 300 }, (_, i) => {
  const separator = i % 3 === 0 ? ", " : " ";
  const body = Array.from({ length: 40 + (i % 17) }, (_, k) => words[(i * 7 + k * k) % words.length]).join(separator);
  return parseFile(`dir${i % 5}/file-${i}.md`, `# ${words[i % words.length]} title ${i}\n\n${body}\n`).document;
});
const queries = ["agent", "deplo", "zebulom", "tapir lemur", "squad memory budget", "title 12", "kubernetes", "nothingmatches"];
const render = (ms: MiniSearch) => queries.map((q) => ms.search(q, SEARCH_OPTIONS).map((r) => `${r.id}:${r.score.toFixed(9)}:${r.title}:${r.category}`).join("|"));

t("same results and scores as addAll", () => {
  const reference = new MiniSearch(INDEX_OPTIONS);
  reference.addAll(docs);
  const builder = new BulkIndexBuilder();
  for (const d of docs) builder.add(d);
  const bulk = builder.finish();
  assert.is(bulk.documentCount, reference.documentCount);
  assert.equal(render(bulk), render(reference));
});

t("the built index supports discard, replace, add and a toJSON/loadJSON round trip", () => {
  const builder = new BulkIndexBuilder();
  for (const d of docs) builder.add(d);
  const bulk = builder.finish();
  const reference = new MiniSearch(INDEX_OPTIONS);
  reference.addAll(docs);
  for (const ms of [bulk, reference]) {
    ms.discard(docs[0]!.id);
    ms.replace({ ...docs[1]!, content: "replaced with a tapir" });
    ms.add(parseFile("new/one.md", "# Fresh\n\nlemur again\n").document);
  }
  assert.equal(render(bulk), render(reference));
  const reloaded = MiniSearch.loadJSON(JSON.stringify(bulk), INDEX_OPTIONS);
  assert.equal(render(reloaded), render(reference));
});

t("an empty build is a working empty index", () => {
  const empty = new BulkIndexBuilder().finish();
  assert.is(empty.documentCount, 0);
  assert.equal(empty.search("agent", SEARCH_OPTIONS), []);
});

t("the compact codec round-trips an index with discarded, replaced and added documents", async () => {
  const builder = new BulkIndexBuilder();
  for (const d of docs) builder.add(d);
  const index = builder.finish();
  for (let i = 0; i < 40; i++) index.discard(docs[i]!.id);
  index.replace({ ...docs[50]!, content: "replaced with a tapir" });
  index.add(parseFile("new/one.md", "# Fresh\n\nlemur again\n").document);
  const { codec, text, data } = encodeIndex(index);
  assert.is(codec, CODEC.compact);
  // The codec leaves out postings of discarded documents: compare with a vacuumed index.
  await index.vacuum();
  const { index: decoded, ids } = decodeIndex(codec, text, data);
  assert.is(ids.length, index.documentCount);
  assert.ok(ids.every((id) => index.has(id)));
  assert.is(decoded.documentCount, index.documentCount);
  assert.equal(render(decoded), render(index));
  decoded.add(parseFile("new/two.md", "# Second\n\nokapi\n").document);
  assert.ok(decoded.search("okapi", SEARCH_OPTIONS).some((r) => r.id === "new/two.md"));
  assert.equal(render(decodeIndex(CODEC.minisearch, JSON.stringify(index), null).index), render(index), "minisearch's own JSON is read too");
});

t("malformed persisted text throws (the caller rebuilds)", () => {
  const ints = (...values: number[]) => Buffer.from(new Int32Array(values).buffer);
  const cases: [string, string, Buffer | null][] = [
    [CODEC.compact, "{not json", ints()],
    [CODEC.compact, '{"terms":["a"]}', ints(1, 0, 2, 5)], // truncated postings
    [CODEC.compact, '{"terms":["a"]}', ints(1, 0, 1, 5, 1, 9)], // trailing values
    [CODEC.compact, '{"terms":[1]}', ints(0)],
    [CODEC.compact, '{"terms":[]}', null],
    [CODEC.compact, '{"terms":[]}', Buffer.from([1, 2, 3])],
    ["other", "{}", null],
  ];
  for (const [codec, text, data] of cases) {
    assert.throws(() => decodeIndex(codec, text, data), `${codec} ${text}`);
  }
});

t.run();
