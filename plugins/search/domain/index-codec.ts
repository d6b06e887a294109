import { CATEGORIES, type Category } from "./categories.ts";
import { CompactIndex, FIELDS } from "./compact-index.ts";
import { FIELD_SLOTS } from "./postings.ts";
import { STEP, runNow, type Steps } from "./slicing.ts";

/** Format tag stored next to the index, so a reader knows which decoder to use. */
export const CODEC = { compact: "typed-1" } as const;

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

/** {@link encodeIndex} with the blob as consecutive views of the index's arrays (no 14 MB copy; the index must not change while they are written). */
export function encodeIndexParts(index: CompactIndex): { codec: string; text: string; data: Buffer[] } {
  const { paths, titles, categories, terms, fieldLength, postings } = index.parts();
  const text = JSON.stringify({ paths, titles, categories, terms });
  const header = new Int32Array([paths.length, terms.length, postings.data.length]);
  const data = [header, fieldLength, postings.offsets, postings.data].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  return { codec: CODEC.compact, text, data };
}

/** Reads a saved index; throws on anything malformed (the caller then rebuilds). */
export function decodeIndex(codec: string, text: string, data: Uint8Array | null): CompactIndex {
  return runNow(decodeSteps(codec, text, data));
}

/** {@link decodeIndex} in steps (the validation of every posting is most of it). */
export function* decodeSteps(codec: string, text: string, data: Uint8Array | null): Steps<CompactIndex> {
  if (codec !== CODEC.compact) throw new Error(`unknown index codec ${codec}`);
  if (!data || data.byteLength % 4 !== 0 || data.byteLength < 12) throw new Error("index without valid binary data");
  const parsed = JSON.parse(text) as { paths?: unknown; titles?: unknown; categories?: unknown; terms?: unknown };
  const { paths, titles, categories, terms } = parsed;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
  if (!strings(paths) || !strings(titles) || !strings(terms) || !strings(categories)) throw new Error("malformed index text");
  if (titles.length !== paths.length || categories.length !== paths.length || new Set(paths).size !== paths.length) throw new Error("malformed index documents");
  if (!categories.every((c) => (CATEGORIES as readonly string[]).includes(c))) throw new Error("unknown category in index");
  // Views of the blob when 4-byte aligned (it normally is), else copied once.
  const ints = data.byteOffset % 4 === 0 ? new Int32Array(data.buffer, data.byteOffset, data.byteLength / 4) : new Int32Array(Uint8Array.from(data).buffer);
  const [docCount, termCount, postingsLength] = [ints[0]!, ints[1]!, ints[2]!];
  if (docCount !== paths.length || termCount !== terms.length || postingsLength % 2 !== 0) throw new Error("index header does not match its text");
  const fieldStart = 3;
  const offsetStart = fieldStart + docCount * FIELD_SLOTS;
  const dataStart = offsetStart + termCount + 1;
  if (ints.length !== dataStart + postingsLength) throw new Error("index binary has the wrong length");
  const fieldLength = ints.subarray(fieldStart, offsetStart);
  const offsets = new Uint32Array(ints.buffer, ints.byteOffset + offsetStart * 4, termCount + 1);
  const postings = ints.subarray(dataStart);
  if (offsets[0] !== 0 || offsets[termCount] !== postingsLength) throw new Error("index offsets do not cover the postings");
  for (let t = 0; t < termCount; t++) if (offsets[t]! > offsets[t + 1]! || offsets[t]! % 2 !== 0) throw new Error("index offsets out of order");
  yield;
  for (let i = 0; i < postings.length; i += 2) {
    if (i % (STEP * 8) === 0) yield;
    const docField = postings[i]!;
    if (docField < 0 || docField >= docCount * FIELD_SLOTS || docField % FIELD_SLOTS >= FIELDS.length || postings[i + 1]! < 1) throw new Error("index posting out of range");
  }
  return CompactIndex.fromParts({ paths, titles, categories: categories as Category[], terms, fieldLength, postings: { offsets, data: postings } });
}
