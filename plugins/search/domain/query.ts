import MiniSearch from "minisearch";
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

/** Bumped whenever the index layout or the document shape change, so old indexes are rebuilt. */
export const INDEX_FORMAT = "compact/1";
