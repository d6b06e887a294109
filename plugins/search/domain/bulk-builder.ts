import MiniSearch, { type AsPlainObject } from "minisearch";
import type { SearchDocument } from "./document.ts";
import { INDEX_OPTIONS } from "./query.ts";

const tokenize = MiniSearch.getDefault("tokenize") as (text: string, field?: string) => string[];
const processTerm = MiniSearch.getDefault("processTerm") as (term: string, field?: string) => string | null | undefined | false;
const FIELDS = INDEX_OPTIONS.fields as (keyof SearchDocument)[];
const STORED = (INDEX_OPTIONS.storeFields ?? []) as (keyof SearchDocument)[];

/**
 * Builds a whole minisearch index much faster than `addAll`. `add` updates the radix tree
 * once per token occurrence (about 3 million lookups for 10,000 files of 2 KiB); this
 * counts term frequencies in plain hash maps and hands minisearch its own serialised form
 * (`loadJS`, the format `toJSON` writes), so the tree is touched once per distinct term.
 * Tokenising, term processing and field lengths are minisearch's defaults, computed the
 * way `add` computes them, so the result scores exactly as an `addAll` index would.
 */
export class BulkIndexBuilder {
  private readonly postings = new Map<string, Record<number, Record<number, number>>>();
  private readonly documentIds: Record<number, string> = {};
  private readonly fieldLength: Record<number, number[]> = {};
  private readonly storedFields: Record<number, Record<string, unknown>> = {};
  private readonly totalLength = FIELDS.map(() => 0);
  private count = 0;

  add(document: SearchDocument): void {
    const shortId = this.count++;
    this.documentIds[shortId] = document.id;
    const stored: Record<string, unknown> = {};
    for (const name of STORED) if (document[name] !== undefined) stored[name] = document[name];
    this.storedFields[shortId] = stored;
    const lengths: number[] = [];
    FIELDS.forEach((field, fieldId) => {
      const value = document[field];
      if (value == null) return;
      const tokens = tokenize(String(value), field);
      lengths[fieldId] = new Set(tokens).size;
      this.totalLength[fieldId]! += lengths[fieldId]!;
      for (const token of tokens) {
        const term = processTerm(token, field);
        if (!term) continue;
        let byField = this.postings.get(term);
        if (!byField) this.postings.set(term, (byField = {}));
        const frequencies = (byField[fieldId] ??= {});
        frequencies[shortId] = (frequencies[shortId] ?? 0) + 1;
      }
    });
    this.fieldLength[shortId] = lengths;
  }

  get size(): number {
    return this.count;
  }

  finish(): MiniSearch<SearchDocument> {
    const js: AsPlainObject = {
      documentCount: this.count,
      nextId: this.count,
      documentIds: this.documentIds,
      fieldIds: Object.fromEntries(FIELDS.map((field, id) => [field, id])),
      fieldLength: this.fieldLength,
      averageFieldLength: this.totalLength.map((total) => (this.count ? total / this.count : 0)),
      storedFields: this.storedFields,
      dirtCount: 0,
      index: [...this.postings],
      serializationVersion: 2,
    };
    return MiniSearch.loadJS<SearchDocument>(js, INDEX_OPTIONS);
  }
}
