/** A bounded, plain-text excerpt of `text` centred on the first match of `terms`. */

const DEFAULT_LENGTH = 240;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Removes a leading YAML front matter block so excerpts show the body. */
function withoutFrontMatter(text: string): { body: string; offset: number } {
  const m = /^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? { body: text.slice(m[0].length), offset: m[0].length } : { body: text, offset: 0 };
}

function firstMatch(text: string, terms: string[]): number {
  const unique = [...new Set(terms.filter(Boolean))].sort((a, b) => b.length - a.length);
  if (unique.length === 0) return -1;
  // Matches at the start of a word, case-insensitively, on the original text, so offsets
  // are never shifted by case folding that changes string lengths.
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${unique.map(escape).join("|")})`, "iu");
  return pattern.exec(text)?.index ?? -1;
}

/**
 * Cuts a window of at most `length` characters around the earliest occurrence of any of
 * `terms` (matched index terms first, then the query's own terms), on word boundaries,
 * never splitting a surrogate pair; whitespace is collapsed and cut ends marked with `…`.
 */
export function makeExcerpt(text: string, terms: string[], fallbackTerms: string[] = [], length = DEFAULT_LENGTH): string {
  let source = withoutFrontMatter(text).body;
  let at = firstMatch(source, terms);
  if (at < 0) at = firstMatch(source, fallbackTerms);
  if (at < 0 && source !== text) {
    // The match may sit in the front matter itself.
    const inFull = firstMatch(text, [...terms, ...fallbackTerms]);
    if (inFull >= 0) {
      source = text;
      at = inFull;
    }
  }
  if (at < 0) at = 0;
  let start = Math.max(0, at - Math.floor(length / 3));
  let end = Math.min(source.length, start + length);
  if (end - start < length) start = Math.max(0, end - length);
  if (start > 0) {
    const space = source.slice(start, at).search(/\s/);
    if (space >= 0) start += space + 1;
  }
  if (end < source.length) {
    const tail = source.slice(at, end);
    const lastSpace = tail.search(/\s\S*$/);
    if (lastSpace > 0) end = at + lastSpace;
  }
  if (start > 0 && isLow(source.charCodeAt(start))) start += 1;
  if (end < source.length && isHigh(source.charCodeAt(end - 1))) end -= 1;
  const body = source.slice(start, end).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${body}${end < source.length ? "…" : ""}`;
}
