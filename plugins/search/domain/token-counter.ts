// Counts the terms of a document's fields for the index (compact-index.ts's tokenizeInto).
// A build of 10,000 files has about 3 million tokens. Splitting each field into strings
// (minisearch's tokenizer, a Unicode regex split) and counting them in string-keyed Maps was
// most of the build: ~2 s on the bench machine, where one Map lookup of a fresh string costs
// ~150-250 ns. Here the text is scanned once: each token is hashed from its characters and
// found in an open-addressing table of the raw tokens seen so far (kept for the whole build:
// the same few thousand tokens recur in every file), compared with their characters kept in
// one array, so only a token never seen before becomes a string; counting is done on typed
// arrays indexed by id. Everything a lookup touches is in a few typed arrays: reading string
// objects scattered over the heap cost a cache miss each.
//
// The tokens are exactly minisearch's default tokenizer's, `text.split(/[\n\r\p{Z}\p{P}]+/u)`,
// including its empty tokens (the field length counts them as minisearch does): an empty
// text is one empty token, and a text that starts or ends with separators has an empty
// token there. token-counter.test.ts compares both on random texts.

/** The term id of a raw token (`-1`: not indexed, such as a stop word); called once per distinct raw token. */
export type TermOfToken = (token: string) => number;

const SEPARATOR = /^[\n\r\p{Z}\p{P}]$/u;
/** Per UTF-16 unit of the BMP: 0 not known yet, 1 a separator, 2 not one. */
const bmpClass = new Uint8Array(65_536);
for (let code = 0; code < 128; code++) bmpClass[code] = SEPARATOR.test(String.fromCharCode(code)) ? 1 : 2;

function isSeparatorCode(code: number): boolean {
  if (code < 65_536) {
    let known = bmpClass[code]!;
    if (known === 0) bmpClass[code] = known = SEPARATOR.test(String.fromCharCode(code)) ? 1 : 2;
    return known === 1;
  }
  return SEPARATOR.test(String.fromCodePoint(code));
}

/**
 * The code point at `i`, whose UTF-16 unit is `unit`: a high surrogate with a unit after it is
 * read as a pair (`codePointAt` gives a lone one back as itself, as minisearch's regex sees it).
 */
function codePointFrom(text: string, i: number, unit: number): number {
  return unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length ? text.codePointAt(i)! : unit;
}

// As int32: the hashes are compared with what an Int32Array holds.
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

export class TokenCounter {
  /** Open addressing, two int32 per slot: the token's hash and its raw id + 1 (0: a free slot). At most half full. */
  private slots = new Int32Array(2 * 4096);
  /** The raw tokens' characters, one after the other (compared in place, so a lookup reads no string object). */
  private chars = new Uint16Array(16_384);
  private charsUsed = 0;
  /** Two int32 per raw id: where its characters start in `chars`, and its length. */
  private spans = new Int32Array(2 * 1024);
  /** Two int32 per raw id: its term id (or -1), and the field (stamp) that last saw it, to count distinct raw tokens. */
  private rawInfo = new Int32Array(2 * 1024);
  private rawCount = 0;
  /** Term id -> its count in the current field (0 outside). */
  private counts = new Int32Array(1024);
  private stamp = 0;
  private distinct = 0;
  private readonly touched: number[] = [];
  private readonly termOf: TermOfToken;

  constructor(termOf: TermOfToken) {
    this.termOf = termOf;
  }

  /**
   * Counts the tokens of `text` as one field: calls `emit` once per term, in the order of
   * its first occurrence, and returns the number of distinct raw tokens (the field length,
   * as minisearch counts it: stop words and empty tokens included, before lower-casing).
   */
  countField(text: string, emit: (termId: number, tf: number) => void): number {
    this.stamp += 1;
    this.distinct = 0;
    const length = text.length;
    let start = 0;
    for (;;) {
      // A token: up to the next separator, hashed as it goes.
      let end = start;
      let hash = FNV_OFFSET;
      while (end < length) {
        const unit = text.charCodeAt(end);
        if (unit < 128) {
          // Most text is ASCII: one table lookup.
          if (bmpClass[unit] === 1) break;
          hash = Math.imul(hash ^ unit, FNV_PRIME);
          end += 1;
          continue;
        }
        const code = codePointFrom(text, end, unit);
        if (isSeparatorCode(code)) break;
        const width = code > 0xffff ? 2 : 1;
        for (let k = 0; k < width; k++) hash = Math.imul(hash ^ text.charCodeAt(end + k), FNV_PRIME);
        end += width;
      }
      this.see(text, start, end, hash);
      if (end >= length) break;
      // The separators after it; at the text's end they leave an empty last token.
      start = end;
      while (start < length) {
        const unit = text.charCodeAt(start);
        if (unit < 128) {
          if (bmpClass[unit] !== 1) break;
          start += 1;
          continue;
        }
        const code = codePointFrom(text, start, unit);
        if (!isSeparatorCode(code)) break;
        start += code > 0xffff ? 2 : 1;
      }
      if (start >= length) {
        this.see(text, start, start, FNV_OFFSET);
        break;
      }
    }
    for (const term of this.touched) {
      emit(term, this.counts[term]!);
      this.counts[term] = 0;
    }
    this.touched.length = 0;
    return this.distinct;
  }

  /** Counts the token `text[start, end)` whose hash is `hash`. */
  private see(text: string, start: number, end: number, hash: number): void {
    const raw = this.find(text, start, end, hash);
    const info = this.rawInfo;
    if (info[2 * raw + 1] !== this.stamp) {
      info[2 * raw + 1] = this.stamp;
      this.distinct += 1;
    }
    const term = info[2 * raw]!;
    if (term < 0) return;
    if (this.counts[term] === 0) this.touched.push(term);
    this.counts[term]! += 1;
  }

  /** The raw id of `text[start, end)`, added when new. */
  private find(text: string, start: number, end: number, hash: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    let slot = hash & mask;
    for (;;) {
      const entry = slots[2 * slot + 1]!;
      if (entry === 0) break;
      if (slots[2 * slot] === hash && this.sameToken(entry - 1, text, start, end)) return entry - 1;
      slot = (slot + 1) & mask;
    }
    return this.add(text, start, end, hash, slot);
  }

  private sameToken(raw: number, text: string, start: number, end: number): boolean {
    if (this.spans[2 * raw + 1] !== end - start) return false;
    const chars = this.chars;
    for (let i = this.spans[2 * raw]!, at = start; at < end; i++, at++) if (chars[i] !== text.charCodeAt(at)) return false;
    return true;
  }

  /** A raw token never seen before, in its free `slot`. */
  private add(text: string, start: number, end: number, hash: number, slot: number): number {
    const raw = this.rawCount++;
    if (2 * raw + 2 > this.spans.length) {
      this.spans = grown(this.spans, 2 * raw + 2);
      this.rawInfo = grown(this.rawInfo, 2 * raw + 2);
    }
    if (this.charsUsed + (end - start) > this.chars.length) {
      const chars = new Uint16Array(Math.max(this.chars.length * 2, this.charsUsed + (end - start)));
      chars.set(this.chars);
      this.chars = chars;
    }
    for (let at = start; at < end; at++) this.chars[this.charsUsed++] = text.charCodeAt(at);
    this.spans[2 * raw] = this.charsUsed - (end - start);
    this.spans[2 * raw + 1] = end - start;
    const term = this.termOf(text.slice(start, end));
    this.rawInfo[2 * raw] = term;
    this.rawInfo[2 * raw + 1] = 0;
    if (term >= this.counts.length) this.counts = grown(this.counts, term + 1);
    this.slots[2 * slot] = hash;
    this.slots[2 * slot + 1] = raw + 1;
    if (this.rawCount * 2 > this.slots.length >> 1) this.rehash();
    return raw;
  }

  private rehash(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i + 1] === 0) continue;
      let slot = old[i]! & mask;
      while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = old[i]!;
      slots[2 * slot + 1] = old[i + 1]!;
    }
    this.slots = slots;
  }
}

/** A copy of `array` at least `size` long (doubling). */
function grown(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}
