// The index's token counter must see exactly the tokens of minisearch's default tokenizer
// (`split(/[\n\r\p{Z}\p{P}]+/u)`), empty ones included, since field lengths count them and
// scores depend on them (compact-index.test.ts compares whole rankings). Here the counts
// themselves are compared on texts built to hit the edges: separators at either end, runs of
// them, non-ASCII punctuation and spaces, surrogate pairs (with separators among them) and
// lone surrogates.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import MiniSearch from "minisearch";
import { TokenCounter } from "../../../plugins/search/domain/token-counter.ts";

const t = suite("search: token counter");
const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

/** What the counter must give: the distinct raw tokens, and each kept term's count in order of first occurrence. */
function reference(text: string, termOf: (token: string) => string | null): { distinct: number; counts: [string, number][] } {
  const tokens = tokenize(text);
  const counts = new Map<string, number>();
  for (const token of tokens) {
    const term = termOf(token);
    if (term !== null) counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return { distinct: new Set(tokens).size, counts: [...counts] };
}

/** The counter over several fields in a row (its tables carry over, as in a build). */
function counted(texts: string[], termOf: (token: string) => string | null): { distinct: number; counts: [string, number][] }[] {
  const terms: string[] = [];
  const ids = new Map<string, number>();
  const counter = new TokenCounter((token) => {
    const term = termOf(token);
    if (term === null) return -1;
    if (!ids.has(term)) ids.set(term, terms.push(term) - 1);
    return ids.get(term)!;
  });
  return texts.map((text) => {
    const counts: [string, number][] = [];
    const distinct = counter.countField(text, (id, tf) => counts.push([terms[id]!, tf]));
    return { distinct, counts };
  });
}

// Stop words and empty tokens are not terms; case folds two tokens into one term.
const termOf = (token: string) => (token === "" || token.toLowerCase() === "the" ? null : token.toLowerCase());

t("the edges: empty text, separators at either end or alone, runs, case and stop words", () => {
  const texts = ["", " ", "...", "a", " a", "a ", ".a.", "a..b", "The the THE cat", "cat, Cat; CAT!", "\n\r\na\r\n", "x\u00a0y\u2028z\u3000w", "«quoted» — dash、comma。end"];
  assert.equal(counted(texts, termOf), texts.map((text) => reference(text, termOf)));
});

t("surrogate pairs: astral letters stay in their token, astral punctuation separates, lone surrogates are letters", () => {
  const texts = ["emoji😀inside", "a\u{10100}b", "\u{10100}start", "end\u{10100}", "\ud800alone", "low\udc00alone", "pair\ud83d", "\ud83d", "𝒳𝒴 𝒵"];
  assert.equal(counted(texts, termOf), texts.map((text) => reference(text, termOf)));
});

t("random texts over letters, digits, ASCII and Unicode separators and surrogates match minisearch's tokenizer", () => {
  const alphabet = ["a", "b", "B", "é", "ß", "1", "-", ".", " ", "\n", "\r", "\t", "'", "_", "\u00a0", "\u2014", "、", "😀", "\u{10100}", "\ud800", "\udc00", "ǅ", "٫", "⁄"];
  let seed = 20261129;
  const random = () => ((seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
  const texts = Array.from({ length: 2000 }, () => Array.from({ length: Math.floor(random() * 30) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(""));
  assert.equal(counted(texts, termOf), texts.map((text) => reference(text, termOf)));
});

t("two tokens with the same 32-bit hash stay two tokens (the table compares characters)", () => {
  // "yaczfaa" and "glbppaa" collide under the counter's FNV-1a (found by a search over 7-letter words).
  const texts = ["yaczfaa glbppaa yaczfaa", "glbppaa", "yaczfaa x glbppaa glbppaa"];
  assert.equal(counted(texts, termOf), texts.map((text) => reference(text, termOf)));
  assert.equal(counted(["yaczfaa glbppaa yaczfaa"], termOf)[0]!.counts, [["yaczfaa", 2], ["glbppaa", 1]]);
});

t("a table grown far past its first size still finds every token (no merged or duplicated tokens)", () => {
  const texts = Array.from({ length: 50 }, (_, i) => Array.from({ length: 400 }, (_, k) => `w${(i * 397 + k * 31) % 9000}`).join(" "));
  const results = counted(texts, termOf);
  assert.equal(results, texts.map((text) => reference(text, termOf)));
});

t.run();
