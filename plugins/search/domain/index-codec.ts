import { CATEGORIES, type Category } from "./categories.ts";
import { CompactIndex, FIELDS } from "./compact-index.ts";
import { FIELD_SLOTS, singlePiece, type PostingSegment } from "./postings.ts";
import { STEP, runNow, type Steps } from "./slicing.ts";

/** Format tag stored next to the index, so a reader knows which decoder to use. */
export const CODEC = { compact: "typed-1" } as const;

/**
 * The postings are cut into pieces of at most this many bytes, each holding whole terms (one
 * term alone may be longer): the store writes each piece as one part, and a loaded index uses
 * the parts where they lie instead of joining them into one copy.
 */
export const PIECE_BYTES = 1024 * 1024;

/** A serialised index: JSON text (paths, titles, categories, terms) and the typed arrays as binary. */
export interface EncodedIndex {
  codec: string;
  text: string;
  data: Buffer;
}

/**
 * Serialises an index. The binary side is little-endian int32: `docCount, termCount,
 * postingsLength`, then the field lengths (FIELD_SLOTS per document), the term offsets
 * (termCount + 1) and the postings. Loading copies nothing per posting: the arrays are
 * views of the blob.
 */
export function encodeIndex(index: CompactIndex): EncodedIndex {
  const { codec, text, data } = encodeIndexParts(index);
  return { codec, text, data: Buffer.concat(data) };
}

/**
 * {@link encodeIndex} with the blob as consecutive views of the index's arrays (no 14 MB copy;
 * the index must not change while they are written): the header, the field lengths, the
 * offsets, then the postings in pieces of whole terms (at most `pieceBytes` unless one term is
 * longer). Joined, they are {@link encodeIndex}'s blob.
 */
export function encodeIndexParts(index: CompactIndex, pieceBytes = PIECE_BYTES): { codec: string; text: string; data: Buffer[] } {
  const { paths, titles, categories, terms, fieldLength, postings } = index.parts();
  const text = JSON.stringify({ paths, titles, categories, terms });
  const header = new Int32Array([paths.length, terms.length, postings.starts.at(-1)!]);
  const arrays = [header, fieldLength, postings.offsets, ...termAlignedPieces(postings, Math.max(2, Math.floor(pieceBytes / 8) * 2))];
  const data = arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  return { codec: CODEC.compact, text, data };
}

/** The segment's postings as views of at most `maxValues` values each, cut only between terms (and between the segment's own pieces). */
function termAlignedPieces(segment: PostingSegment, maxValues: number): Int32Array[] {
  const { offsets, pieces, starts } = segment;
  const out: Int32Array[] = [];
  let piece = 0;
  let from = 0;
  const emit = (to: number) => {
    if (to > from) out.push(pieces[piece]!.subarray(from - starts[piece]!, to - starts[piece]!));
    from = to;
  };
  for (let term = 0; term + 1 < offsets.length; term++) {
    const start = offsets[term]!;
    const end = offsets[term + 1]!;
    if (end === start) continue;
    while (start >= starts[piece + 1]!) {
      emit(starts[piece + 1]!);
      piece += 1;
    }
    if (end - from > maxValues && start > from) emit(start);
  }
  emit(starts.at(-1)!);
  return out;
}

/** Reads a saved index; throws on anything malformed (the caller then rebuilds). */
export function decodeIndex(codec: string, text: string, data: Uint8Array | readonly Uint8Array[] | null): CompactIndex {
  return runNow(decodeSteps(codec, text, data));
}

/** The blob's arrays, checked against the text's counts. */
interface BlobArrays {
  docCount: number;
  termCount: number;
  fieldLength: Int32Array;
  offsets: Uint32Array;
  postings: PostingSegment;
}

/**
 * {@link decodeIndex} in steps (the validation of every posting is most of it). `data` is the
 * blob, whole or in the parts {@link encodeIndexParts} wrote: parts that hold the header, the
 * field lengths, the offsets and whole terms' postings are used as they are; any other cut
 * (an index saved before the pieces were term-aligned) is joined first.
 */
export function* decodeSteps(codec: string, text: string, data: Uint8Array | readonly Uint8Array[] | null): Steps<CompactIndex> {
  if (codec !== CODEC.compact) throw new Error(`unknown index codec ${codec}`);
  const parts = data === null ? [] : data instanceof Uint8Array ? [data] : data;
  const byteLength = parts.reduce((sum, part) => sum + part.byteLength, 0);
  if (parts.length === 0 || byteLength % 4 !== 0 || byteLength < 12) throw new Error("index without valid binary data");
  const parsed = JSON.parse(text) as { paths?: unknown; titles?: unknown; categories?: unknown; terms?: unknown };
  const { paths, titles, categories, terms } = parsed;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
  if (!strings(paths) || !strings(titles) || !strings(terms) || !strings(categories)) throw new Error("malformed index text");
  if (titles.length !== paths.length || categories.length !== paths.length || new Set(paths).size !== paths.length) throw new Error("malformed index documents");
  if (!categories.every((c) => (CATEGORIES as readonly string[]).includes(c))) throw new Error("unknown category in index");
  const { docCount, termCount, fieldLength, offsets, postings } = termAlignedArrays(parts) ?? joinedArrays(parts);
  if (docCount !== paths.length || termCount !== terms.length) throw new Error("index header does not match its text");
  const postingsLength = postings.starts.at(-1)!;
  if (offsets[0] !== 0 || offsets[termCount] !== postingsLength) throw new Error("index offsets do not cover the postings");
  for (let t = 0; t < termCount; t++) if (offsets[t]! > offsets[t + 1]! || offsets[t]! % 2 !== 0) throw new Error("index offsets out of order");
  yield;
  let checked = 0;
  for (const piece of postings.pieces) {
    for (let i = 0; i < piece.length; i += 2) {
      if (checked++ % (STEP * 4) === 0) yield;
      const docField = piece[i]!;
      if (docField < 0 || docField >= docCount * FIELD_SLOTS || docField % FIELD_SLOTS >= FIELDS.length || piece[i + 1]! < 1) throw new Error("index posting out of range");
    }
  }
  return CompactIndex.fromParts({ paths, titles, categories: categories as Category[], terms, fieldLength, postings });
}

/** Views of an aligned part, or of a copy of one that is not 4-byte aligned. */
const int32Of = (part: Uint8Array) => (part.byteOffset % 4 === 0 ? new Int32Array(part.buffer, part.byteOffset, part.byteLength / 4) : new Int32Array(Uint8Array.from(part).buffer));
const uint32Of = (part: Uint8Array) => (part.byteOffset % 4 === 0 ? new Uint32Array(part.buffer, part.byteOffset, part.byteLength / 4) : new Uint32Array(Uint8Array.from(part).buffer));

/**
 * The arrays from parts that end where each array ends (the header, the field lengths, the
 * offsets; an array the store split over several parts is joined, a megabyte at most per
 * 65,536 documents), then postings parts of whole terms; null for any other cut.
 */
function termAlignedArrays(parts: readonly Uint8Array[]): BlobArrays | null {
  let next = 0;
  /** The next parts, joined, when they add up to exactly `bytes`; null otherwise. */
  const take = (bytes: number): Uint8Array | null => {
    const from = next;
    let taken = 0;
    while (taken < bytes && next < parts.length) taken += parts[next++]!.byteLength;
    if (taken !== bytes) return null;
    return next - from === 1 ? parts[from]! : Buffer.concat(parts.slice(from, next));
  };
  const head = take(12);
  if (!head) return null;
  const [docCount, termCount, postingsLength] = int32Of(head) as unknown as [number, number, number];
  if (docCount < 0 || termCount < 0 || postingsLength < 0) return null;
  const fields = take(docCount * FIELD_SLOTS * 4);
  const offsetBytes = fields && take((termCount + 1) * 4);
  if (!fields || !offsetBytes) return null;
  const pieces = parts.slice(next);
  if (pieces.some((piece) => piece.byteLength === 0 || piece.byteLength % 8 !== 0)) return null;
  const starts = [0];
  for (const piece of pieces) starts.push(starts.at(-1)! + piece.byteLength / 4);
  if (starts.at(-1) !== postingsLength) return null;
  const offsets = uint32Of(offsetBytes);
  for (let p = 1; p < pieces.length; p++) if (!holdsValue(offsets, starts[p]!)) return null;
  const postings = pieces.length ? { offsets, pieces: pieces.map(int32Of), starts } : singlePiece(offsets, new Int32Array(0));
  return { docCount, termCount, fieldLength: int32Of(fields), offsets, postings };
}

/** The arrays as views of one blob (the parts joined when there are several). */
function joinedArrays(parts: readonly Uint8Array[]): BlobArrays {
  const blob = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  const ints = int32Of(blob);
  const [docCount, termCount, postingsLength] = [ints[0]!, ints[1]!, ints[2]!];
  if (docCount < 0 || termCount < 0 || postingsLength < 0 || postingsLength % 2 !== 0) throw new Error("index header is malformed");
  const fieldStart = 3;
  const offsetStart = fieldStart + docCount * FIELD_SLOTS;
  const dataStart = offsetStart + termCount + 1;
  if (ints.length !== dataStart + postingsLength) throw new Error("index binary has the wrong length");
  const offsets = new Uint32Array(ints.buffer, ints.byteOffset + offsetStart * 4, termCount + 1);
  const postings = ints.subarray(dataStart);
  return { docCount, termCount, fieldLength: ints.subarray(fieldStart, offsetStart), offsets, postings: singlePiece(offsets, postings) };
}

/** Whether the ascending `offsets` hold `value` (binary search; a wrong order is caught by the caller's check). */
function holdsValue(offsets: Uint32Array, value: number): boolean {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = offsets[mid]!;
    if (at === value) return true;
    if (at < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
