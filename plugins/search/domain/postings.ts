import { STEP, type Steps } from "./slicing.ts";

/**
 * Postings kept as typed arrays instead of one JS object per posting (which made the index
 * of a 10,000-file workspace hold ~1.5 million Map entries and the server 600 MB).
 *
 * A posting is two int32 values: `docId * FIELD_SLOTS + fieldId`, then the term frequency.
 * The base segment is CSR: the postings of term `t` are `data[offsets[t] .. offsets[t+1])`, `data`
 * being the segment's postings (in pieces, see {@link PostingSegment}).
 * Documents added after the base was built go to a small delta (term id -> plain array),
 * merged into a new base at the next full save ({@link compactPostings}).
 */
export const FIELD_SLOTS = 4;

export interface PostingSegment {
  offsets: Uint32Array;
  /**
   * The postings, in pieces that each hold whole terms: one piece for a segment built here,
   * several for an index loaded from its saved blob parts (used where they lie, not joined
   * into one 13 MB copy first: on this VM every fresh page costs a fault, issue 26).
   */
  pieces: readonly Int32Array[];
  /** Where each piece starts in the postings (in values), then their total: `pieces.length + 1` entries. */
  starts: readonly number[];
}

/** A segment of one piece. */
export const singlePiece = (offsets: Uint32Array, data: Int32Array): PostingSegment => ({ offsets, pieces: [data], starts: [0, data.length] });

export const EMPTY_SEGMENT: PostingSegment = singlePiece(new Uint32Array(1), new Int32Array(0));

/** Where term `term`'s postings lie: the piece holding them and their range in it, `[piece, start, end)`. */
export function termSpan(segment: PostingSegment, term: number): [Int32Array, number, number] {
  const piece = pieceOf(segment, term);
  const shift = segment.starts[piece]!;
  return [segment.pieces[piece]!, segment.offsets[term]! - shift, segment.offsets[term + 1]! - shift];
}

/** The index of the piece holding term `term`'s postings; any piece for a term without postings. */
function pieceOf(segment: PostingSegment, term: number): number {
  const { starts } = segment;
  if (starts.length <= 2) return 0;
  const at = segment.offsets[term]!;
  // The last piece starting at or before `at` (a term never straddles two pieces).
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A growable int32 list (triples of term id, doc-field, tf during a build), kept in chunks
 * of fixed size: growing never copies what is there (doubling one array copied 16 MB in
 * one go at the end of a 10,000-file build, and held twice the memory meanwhile).
 */
export class IntList {
  readonly chunks: Int32Array[] = [];
  private current = new Int32Array(0);
  private used = 0;
  length = 0;
  push3(a: number, b: number, c: number): void {
    if (this.used + 3 > this.current.length) {
      this.current = new Int32Array(TRIPLE_CHUNK);
      this.chunks.push(this.current);
      this.used = 0;
    }
    this.current[this.used++] = a;
    this.current[this.used++] = b;
    this.current[this.used++] = c;
    this.length += 3;
  }

  /** The filled part of each chunk, in order (views, no copy). */
  *filled(length = this.length): Generator<Int32Array> {
    let left = length;
    for (const chunk of this.chunks) {
      if (left <= 0) return;
      yield chunk.subarray(0, Math.min(TRIPLE_CHUNK, left));
      left -= TRIPLE_CHUNK;
    }
  }
}

/** Values per chunk of an {@link IntList}: whole triples only. */
const TRIPLE_CHUNK = 3 * 87_381;

/**
 * Sorts the first `length` values of `triples` (`(termId, docField, tf)` triples) by term into
 * a CSR segment (a counting sort: two passes, no objects), in steps (see slicing.ts).
 */
export function* segmentSteps(triples: IntList, length: number, termCount: number): Steps<PostingSegment> {
  const offsets = new Uint32Array(termCount + 1);
  for (const v of triples.filled(length)) {
    for (let i = 0; i < v.length; i += 3) offsets[v[i]! + 1]! += 2;
    yield;
  }
  for (let t = 0; t < termCount; t++) offsets[t + 1]! += offsets[t]!;
  const data = new Int32Array(offsets[termCount]!);
  const at = offsets.slice(0, termCount);
  yield;
  for (const v of triples.filled(length)) {
    for (let i = 0; i < v.length; i += 3) {
      const term = v[i]!;
      const pos = at[term]!;
      data[pos] = v[i + 1]!;
      data[pos + 1] = v[i + 2]!;
      at[term] = pos + 2;
    }
    yield;
  }
  return singlePiece(offsets, data);
}

/**
 * One segment of the base and the delta without the postings of dead documents, with
 * documents renumbered by `newId` (-1: dropped).
 */
export function* compactSteps(base: PostingSegment, delta: Map<number, number[]>, termCount: number, newId: Int32Array): Steps<PostingSegment> {
  const triples = new IntList();
  const keep = (term: number, docField: number, tf: number) => {
    const doc = newId[Math.floor(docField / FIELD_SLOTS)]!;
    if (doc >= 0) triples.push3(term, doc * FIELD_SLOTS + (docField % FIELD_SLOTS), tf);
  };
  let done = 0;
  for (let term = 0; term < termCount; term++) {
    if (term + 1 < base.offsets.length) {
      const [data, start, end] = termSpan(base, term);
      for (let i = start; i < end; i += 2) keep(term, data[i]!, data[i + 1]!);
    }
    const extra = delta.get(term);
    if (extra) for (let i = 0; i < extra.length; i += 2) keep(term, extra[i]!, extra[i + 1]!);
    if (triples.length - done > STEP * 3) {
      done = triples.length;
      yield;
    }
  }
  return yield* segmentSteps(triples, triples.length, termCount);
}
