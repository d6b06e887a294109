import MiniSearch, { type AsPlainObject } from "minisearch";
import type { SearchDocument } from "./document.ts";
import { INDEX_OPTIONS } from "./query.ts";

/** Term data as minisearch keeps it: field id -> short document id -> term frequency. */
type TermData = Map<number, Map<number, number>>;

/** The minisearch 7 internals this codec reads; checked before every use. */
interface Internals {
  _documentCount: number;
  _nextId: number;
  _fieldIds: Record<string, number>;
  _avgFieldLength: number[];
  _documentIds: Map<number, unknown>;
  _fieldLength: Map<number, number[]>;
  _storedFields: Map<number, Record<string, unknown>>;
  _index: Iterable<[string, TermData]> & { set(term: string, data: TermData): unknown; has(term: string): boolean; size: number };
}

function internals(index: MiniSearch<SearchDocument>): Internals | undefined {
  const i = index as unknown as Partial<Internals>;
  const ok =
    typeof i._documentCount === "number" &&
    typeof i._nextId === "number" &&
    i._documentIds instanceof Map &&
    i._fieldLength instanceof Map &&
    i._storedFields instanceof Map &&
    Array.isArray(i._avgFieldLength) &&
    typeof i._fieldIds === "object" &&
    typeof i._index?.set === "function" &&
    typeof (i._index as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
  return ok ? (i as Internals) : undefined;
}

/** Format tags stored next to the text, so a reader knows which decoder to use. */
export const CODEC = { compact: "compact-2", minisearch: "minisearch-json" } as const;

/** A serialised index: JSON text, plus the postings as binary for the compact codec. */
export interface EncodedIndex {
  codec: string;
  text: string;
  data: Buffer | null;
}

/** Live postings of one term: `[fieldId, pairs]` with `pairs` = docId, tf, docId, tf... */
function livePostings(data: TermData, live: Map<number, unknown>): [number, number][] {
  const fields: [number, number][] = [];
  for (const [fieldId, documents] of data) {
    let n = 0;
    for (const docId of documents.keys()) if (live.has(docId)) n += 1;
    if (n > 0) fields.push([fieldId, n]);
  }
  return fields;
}

/**
 * Serialises an index. minisearch's `toJSON` turns each of the ~1.5 million postings of a
 * 10,000-file workspace into an object property (slow to write, slower to read back, and
 * hundreds of MB of garbage). The compact form keeps documents, field lengths and stored
 * fields in minisearch's own serialised shape (they go back through its public `loadJS`),
 * the terms as a JSON list, and the postings as little-endian int32 values outside the JS
 * heap: per term, in list order, `fieldCount, (fieldId, n, (docId, tf) x n) x fieldCount`.
 * Falls back to `toJSON` if this minisearch's internals are not the known ones.
 */
export function encodeIndex(index: MiniSearch<SearchDocument>): EncodedIndex {
  const i = internals(index);
  if (!i) return { codec: CODEC.minisearch, text: JSON.stringify(index), data: null };
  const live = i._documentIds;
  // Postings of discarded documents (not vacuumed yet) are left out, so the reloaded index
  // starts clean (dirtCount 0). A first pass sizes the output, so it is allocated once.
  let size = 0;
  for (const [, data] of i._index) {
    const fields = livePostings(data, live);
    if (fields.length > 0) size += 1 + fields.reduce((sum, [, n]) => sum + 2 + 2 * n, 0);
  }
  const out = new Int32Array(size);
  let at = 0;
  const terms: string[] = [];
  for (const [term, data] of i._index) {
    const fields = livePostings(data, live);
    if (fields.length === 0) continue;
    terms.push(term);
    out[at++] = fields.length;
    for (const [fieldId, n] of fields) {
      out[at++] = fieldId;
      out[at++] = n;
      for (const [docId, tf] of data.get(fieldId)!) {
        if (!live.has(docId)) continue;
        out[at++] = docId;
        out[at++] = tf;
      }
    }
  }
  const text = JSON.stringify({
    documentCount: i._documentCount,
    nextId: i._nextId,
    dirtCount: 0,
    fieldIds: i._fieldIds,
    averageFieldLength: i._avgFieldLength,
    documentIds: Object.fromEntries(i._documentIds),
    fieldLength: Object.fromEntries(i._fieldLength),
    storedFields: Object.fromEntries(i._storedFields),
    terms,
  });
  return { codec: CODEC.compact, text, data: Buffer.from(out.buffer, 0, at * 4) };
}

/** A decoded index and the ids of its documents. */
export interface DecodedIndex {
  index: MiniSearch<SearchDocument>;
  ids: string[];
}

/** Reads what {@link encodeIndex} wrote; throws on anything malformed. */
export function decodeIndex(codec: string, text: string, data: Uint8Array | null): DecodedIndex {
  if (codec === CODEC.minisearch) {
    const js = JSON.parse(text) as AsPlainObject;
    return { index: MiniSearch.loadJS<SearchDocument>(js, INDEX_OPTIONS), ids: Object.values(js.documentIds ?? {}) as string[] };
  }
  if (codec !== CODEC.compact) throw new Error(`unknown index codec ${codec}`);
  if (!data || data.byteLength % 4 !== 0) throw new Error("compact index without valid postings");
  const { terms, ...rest } = JSON.parse(text) as Omit<AsPlainObject, "index" | "serializationVersion"> & { terms: string[] };
  if (!Array.isArray(terms)) throw new Error("compact index without terms");
  const index = MiniSearch.loadJS<SearchDocument>({ ...rest, index: [], serializationVersion: 2 } as AsPlainObject, INDEX_OPTIONS);
  const tree = internals(index)?._index;
  if (!tree || tree.size !== 0) throw new Error("this minisearch version cannot take the compact index");
  // Read in place when the blob is 4-byte aligned (it normally is), else copied once.
  const values =
    data.byteOffset % 4 === 0
      ? new Int32Array(data.buffer, data.byteOffset, data.byteLength / 4)
      : new Int32Array(Uint8Array.from(data).buffer);
  let at = 0;
  const next = () => {
    if (at >= values.length) throw new Error("truncated compact index");
    return values[at++]!;
  };
  for (const term of terms) {
    if (typeof term !== "string") throw new Error("malformed compact index");
    const termData: TermData = new Map();
    for (let fields = next(); fields > 0; fields--) {
      const fieldId = next();
      const documents = new Map<number, number>();
      for (let n = next(); n > 0; n--) documents.set(next(), next());
      termData.set(fieldId, documents);
    }
    tree.set(term, termData);
  }
  if (at !== values.length) throw new Error("compact index has trailing postings");
  return { index, ids: Object.values(rest.documentIds ?? {}) as string[] };
}

/**
 * Whether `term` (already lower-cased) is a word of the index, or `undefined` when this
 * minisearch version's internals are not the known ones. A cheap tree lookup.
 */
export function hasTerm(index: MiniSearch<SearchDocument>, term: string): boolean | undefined {
  const tree = internals(index)?._index;
  return typeof tree?.has === "function" ? tree.has(term) : undefined;
}
