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
export const CODEC = { compact: "compact-1", minisearch: "minisearch-json" } as const;

/**
 * Serialises an index. minisearch's `toJSON` turns each of the ~1.5 million postings of a
 * 10,000-file workspace into an object property (slow to write, slower to read back, and
 * hundreds of MB of garbage); the compact form holds the same data with the postings as one
 * flat array of numbers: per term `term, fieldCount, (fieldId, n, (docId, tf) x n) x fieldCount`.
 * Documents, field lengths and stored fields keep minisearch's own serialised shape and go
 * back through its public `loadJS`. Falls back to `toJSON` if the internals are not there.
 */
export function encodeIndex(index: MiniSearch<SearchDocument>): { codec: string; text: string } {
  const i = internals(index);
  if (!i) return { codec: CODEC.minisearch, text: JSON.stringify(index) };
  const terms: (string | number)[] = [];
  const live = i._documentIds;
  for (const [term, data] of i._index) {
    // Postings of discarded documents (not vacuumed yet) are left out, so the reloaded
    // index starts clean (dirtCount 0).
    const fields: [number, number[]][] = [];
    for (const [fieldId, documents] of data) {
      const pairs: number[] = [];
      for (const [docId, tf] of documents) if (live.has(docId)) pairs.push(docId, tf);
      if (pairs.length > 0) fields.push([fieldId, pairs]);
    }
    if (fields.length === 0) continue;
    terms.push(term, fields.length);
    for (const [fieldId, pairs] of fields) {
      terms.push(fieldId, pairs.length / 2);
      for (const value of pairs) terms.push(value);
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
  return { codec: CODEC.compact, text };
}

/** Reads what {@link encodeIndex} wrote; throws on anything malformed. */
export function decodeIndex(codec: string, text: string): MiniSearch<SearchDocument> {
  if (codec === CODEC.minisearch) return MiniSearch.loadJSON<SearchDocument>(text, INDEX_OPTIONS);
  if (codec !== CODEC.compact) throw new Error(`unknown index codec ${codec}`);
  const { terms, ...rest } = JSON.parse(text) as Omit<AsPlainObject, "index" | "serializationVersion"> & { terms: (string | number)[] };
  if (!Array.isArray(terms)) throw new Error("compact index without terms");
  const index = MiniSearch.loadJS<SearchDocument>({ ...rest, index: [], serializationVersion: 2 } as AsPlainObject, INDEX_OPTIONS);
  const tree = internals(index)?._index;
  if (!tree || tree.size !== 0) throw new Error("this minisearch version cannot take the compact index");
  let at = 0;
  const next = () => {
    if (at >= terms.length) throw new Error("truncated compact index");
    return terms[at++]!;
  };
  while (at < terms.length) {
    const term = next();
    if (typeof term !== "string") throw new Error("malformed compact index");
    const data: TermData = new Map();
    for (let fields = next() as number; fields > 0; fields--) {
      const fieldId = next() as number;
      const documents = new Map<number, number>();
      for (let n = next() as number; n > 0; n--) documents.set(next() as number, next() as number);
      data.set(fieldId, documents);
    }
    tree.set(term, data);
  }
  return index;
}

/**
 * Whether `term` (already lower-cased) is a word of the index, or `undefined` when this
 * minisearch version's internals are not the known ones. A cheap tree lookup.
 */
export function hasTerm(index: MiniSearch<SearchDocument>, term: string): boolean | undefined {
  const tree = internals(index)?._index;
  return typeof tree?.has === "function" ? tree.has(term) : undefined;
}
