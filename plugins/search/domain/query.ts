import MiniSearch, { type Options, type SearchOptions } from "minisearch";
import type { SearchDocument } from "./document.ts";
import { STOP_WORDS } from "./stop-words.ts";

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];
const WORD_CHAR = /[\p{L}\p{N}]/gu;

/** Lower-cases a token; `null` for stop words, which are neither indexed nor searched. */
export function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : lower;
}

/** The words of a query that can match anything (tokens with a letter or digit, not stop words). */
export function queryTerms(q: string): string[] {
  return tokenize(q).filter((t) => /[\p{L}\p{N}]/u.test(t) && processTerm(t) !== null);
}

/** Whether a query has the 2 letters or digits the spec's "at least 2 characters" means. */
export function isLongEnough(q: string): boolean {
  return (q.trim().match(WORD_CHAR)?.length ?? 0) >= 2;
}

/** The minisearch options every index instance (built or loaded) must share. */
export const INDEX_OPTIONS: Options<SearchDocument> = {
  idField: "id",
  fields: ["title", "name", "content"],
  storeFields: ["title", "category"],
  processTerm,
  // Watcher churn discards documents one by one; vacuum in the background in small batches.
  autoVacuum: { batchSize: 2_000, batchWait: 5, minDirtCount: 200, minDirtFactor: 0.1 },
};

/** Bumped whenever INDEX_OPTIONS or the document shape change, so old indexes are rebuilt. */
export const INDEX_FORMAT = "minisearch-7/3";

/**
 * Ranking: the title counts 4x and the file name 2x the body; every word of at least 3
 * letters also matches as a prefix, and words of 4 letters or more tolerate typos
 * (edit distance 20% of the length, at most 2). See {@link searchOptionsFor}.
 */
export const SEARCH_OPTIONS: SearchOptions = {
  boost: { title: 4, name: 2 },
  prefix: (term) => term.length >= 3,
  fuzzy: (term) => (term.length >= 4 ? 0.2 : false),
  maxFuzzy: 2,
  combineWith: "AND",
};

/**
 * The search options for one index: typo tolerance only for query words that are not a
 * word of the index as typed. A word that exists is what the user meant; expanding it to
 * every word within one or two edits multiplied the work (and the noise) of common-word
 * queries. Without the term lookup (unknown minisearch internals), every word is expanded.
 */
export function searchOptionsFor(exists: (term: string) => boolean | undefined): SearchOptions {
  const fuzzy = SEARCH_OPTIONS.fuzzy as (term: string, i: number, terms: string[]) => number | boolean;
  return { ...SEARCH_OPTIONS, fuzzy: (term, i, terms) => (exists(term) === true ? false : fuzzy(term, i, terms)) };
}
