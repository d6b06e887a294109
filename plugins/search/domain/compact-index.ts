import MiniSearch from "minisearch";
import SearchableMap from "minisearch/SearchableMap";
import type { Category } from "./categories.ts";
import type { SearchDocument } from "./document.ts";
import { EMPTY_SEGMENT, FIELD_SLOTS, IntList, compactPostings, segmentOf, type PostingSegment } from "./postings.ts";
import { processTerm } from "./query.ts";

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

/** Indexed fields, in scoring order, with their boost (title 4x, file name 2x the body). */
export const FIELDS = ["title", "name", "content"] as const;
const BOOST = [4, 2, 1];
/** minisearch's defaults, so ranking is what it was with minisearch's own index. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const WEIGHT = { fuzzy: 0.45, prefix: 0.375 };
const MAX_FUZZY = 2;

export interface CompactHit {
  path: string;
  score: number;
  title: string;
  category: Category;
  /** Index terms that matched (exact, prefix or fuzzy), for the excerpt. */
  terms: string[];
}

interface Match {
  score: number;
  queryTerms: string[];
  terms: string[];
}

/** The serialisable parts of an index (see index-codec.ts). */
export interface IndexParts {
  paths: string[];
  titles: string[];
  categories: Category[];
  terms: string[];
  fieldLength: Int32Array;
  postings: PostingSegment;
}

/**
 * The workspace full-text index: minisearch's radix tree only as the dictionary of terms
 * (term -> term id, for prefix and typo lookups), postings and per-document field lengths
 * in typed arrays. Scores are minisearch's BM25+ with its prefix and fuzzy weights, so
 * ranking is unchanged (a test compares with minisearch's `addAll` index).
 *
 * Removing a document only marks it dead; added documents go to a delta segment. Both are
 * folded into a fresh base by {@link compact} (run before each full save).
 */
export class CompactIndex {
  private paths: (string | undefined)[] = [];
  private titles: string[] = [];
  private categories: Category[] = [];
  private fieldLength: Int32Array = new Int32Array(FIELD_SLOTS * 64);
  private readonly ids = new Map<string, number>();
  private readonly totalLength = [0, 0, 0];
  private dictionary = new SearchableMap<number>();
  private termCount = 0;
  private base: PostingSegment = EMPTY_SEGMENT;
  private delta = new Map<number, number[]>();
  private deadCount = 0;

  /**
   * A bulk build: documents are added one by one (the caller yields between batches), their
   * postings collected as int triples and sorted by term once at the end.
   */
  static builder(): { add(document: SearchDocument): void; finish(): CompactIndex } {
    const index = new CompactIndex();
    const termIds = new Map<string, number>();
    const triples = new IntList();
    const termId = (term: string) => {
      let id = termIds.get(term);
      if (id === undefined) termIds.set(term, (id = termIds.size));
      return id;
    };
    return {
      add(document) {
        if (index.ids.has(document.id)) return;
        index.tokenizeInto(document, index.addDocument(document), termId, (t, docField, tf) => triples.push3(t, docField, tf));
      },
      finish() {
        index.termCount = termIds.size;
        index.dictionary = SearchableMap.from(termIds) as SearchableMap<number>;
        index.base = segmentOf(triples, termIds.size);
        return index;
      },
    };
  }

  static build(documents: Iterable<SearchDocument>): CompactIndex {
    const builder = CompactIndex.builder();
    for (const document of documents) builder.add(document);
    return builder.finish();
  }

  /** Reassembles a saved index (validated by the codec). */
  static fromParts(parts: IndexParts): CompactIndex {
    const index = new CompactIndex();
    index.paths = parts.paths;
    index.titles = parts.titles;
    index.categories = parts.categories;
    index.fieldLength = parts.fieldLength;
    parts.paths.forEach((path, docId) => {
      index.ids.set(path, docId);
      for (let f = 0; f < FIELDS.length; f++) index.totalLength[f]! += parts.fieldLength[docId * FIELD_SLOTS + f]!;
    });
    index.termCount = parts.terms.length;
    index.dictionary = SearchableMap.from(parts.terms.map((term, id): [string, number] => [term, id])) as SearchableMap<number>;
    index.base = parts.postings;
    return index;
  }

  get documentCount(): number {
    return this.ids.size;
  }

  has(path: string): boolean {
    return this.ids.has(path);
  }

  hasTerm(term: string): boolean {
    return this.dictionary.has(term);
  }

  documentPaths(): IterableIterator<string> {
    return this.ids.keys();
  }

  /** Adds or replaces one document (watcher changes, start-up refresh). */
  upsert(document: SearchDocument): void {
    this.remove(document.id);
    const docId = this.addDocument(document);
    this.tokenizeInto(document, docId, (term) => {
      let id = this.dictionary.get(term);
      if (id === undefined) this.dictionary.set(term, (id = this.termCount++));
      return id;
    }, (termId, docField, tf) => {
      let list = this.delta.get(termId);
      if (!list) this.delta.set(termId, (list = []));
      list.push(docField, tf);
    });
  }

  /** Removes a document; true when it was there. Its postings stay until {@link compact}. */
  remove(path: string): boolean {
    const docId = this.ids.get(path);
    if (docId === undefined) return false;
    this.ids.delete(path);
    this.paths[docId] = undefined;
    for (let f = 0; f < FIELDS.length; f++) this.totalLength[f]! -= this.fieldLength[docId * FIELD_SLOTS + f]!;
    this.deadCount += 1;
    return true;
  }

  /** Folds the delta into the base and drops dead documents (renumbering the live ones). */
  compact(): void {
    if (this.deadCount === 0 && this.delta.size === 0) return;
    const newId = new Int32Array(this.paths.length).fill(-1);
    const paths: string[] = [];
    const titles: string[] = [];
    const categories: Category[] = [];
    const fieldLength = new Int32Array(Math.max(64, this.ids.size) * FIELD_SLOTS);
    this.paths.forEach((path, docId) => {
      if (path === undefined) return;
      const id = paths.length;
      newId[docId] = id;
      paths.push(path);
      titles.push(this.titles[docId]!);
      categories.push(this.categories[docId]!);
      fieldLength.set(this.fieldLength.subarray(docId * FIELD_SLOTS, docId * FIELD_SLOTS + FIELD_SLOTS), id * FIELD_SLOTS);
      this.ids.set(path, id);
    });
    this.base = compactPostings(this.base, this.delta, this.termCount, newId);
    this.delta = new Map();
    this.paths = paths;
    this.titles = titles;
    this.categories = categories;
    this.fieldLength = fieldLength;
    this.deadCount = 0;
  }

  /** The serialisable state; compacts first. Terms in term-id order. */
  parts(): IndexParts {
    this.compact();
    const terms: string[] = new Array(this.termCount);
    for (const [term, id] of this.dictionary) terms[id] = term;
    return {
      paths: this.paths as string[],
      titles: this.titles,
      categories: this.categories,
      terms,
      fieldLength: this.fieldLength.subarray(0, this.paths.length * FIELD_SLOTS),
      postings: this.base,
    };
  }

  /**
   * Ranks the documents matching `terms` (lower-cased query words): every word must match
   * (`AND`) unless `combineWith` is `OR`. Words of 3+ letters also match as prefixes; words
   * of 4+ letters that are not a term of the index tolerate typos (20% of the length, at most 2 edits).
   */
  search(terms: string[], options: { combineWith?: "AND" | "OR"; filter?: (category: Category) => boolean } = {}): CompactHit[] {
    if (terms.length === 0) return [];
    const perTerm = terms.map((term) => this.termMatches(term));
    const combined = perTerm.reduce(options.combineWith === "OR" ? orCombine : andCombine);
    const hits: CompactHit[] = [];
    for (const [docId, match] of combined) {
      const category = this.categories[docId]!;
      if (options.filter && !options.filter(category)) continue;
      hits.push({ path: this.paths[docId]!, score: match.score * (match.queryTerms.length || 1), title: this.titles[docId]!, category, terms: match.terms });
    }
    return hits.sort((a, b) => b.score - a.score);
  }

  private termMatches(term: string): Map<number, Match> {
    const results = new Map<number, Match>();
    const exact = this.dictionary.get(term);
    if (exact !== undefined) this.score(term, term, exact, 1, results);
    const prefix = term.length >= 3 ? this.dictionary.atPrefix(term) : undefined;
    const maxDistance = exact === undefined && term.length >= 4 ? Math.min(MAX_FUZZY, Math.round(term.length * 0.2)) : 0;
    const fuzzy = maxDistance ? this.dictionary.fuzzyGet(term, maxDistance) : undefined;
    if (prefix) {
      for (const [derived, termId] of prefix) {
        const distance = derived.length - term.length;
        if (!distance) continue;
        fuzzy?.delete(derived);
        this.score(term, derived, termId, (WEIGHT.prefix * derived.length) / (derived.length + 0.3 * distance), results);
      }
    }
    if (fuzzy) {
      for (const [derived, [termId, distance]] of fuzzy) {
        if (!distance) continue;
        this.score(term, derived, termId, (WEIGHT.fuzzy * derived.length) / (derived.length + distance), results);
      }
    }
    return results;
  }

  /** Adds one index term's BM25+ contribution, field by field as minisearch does (same float sums). */
  private score(queryTerm: string, derived: string, termId: number, weight: number, results: Map<number, Match>): void {
    const lists = this.postingLists(termId);
    const matching = [0, 0, 0];
    for (const [data, from, to] of lists) {
      for (let i = from; i < to; i += 2) {
        const docField = data[i]!;
        if (this.paths[Math.floor(docField / FIELD_SLOTS)] !== undefined) matching[docField % FIELD_SLOTS]! += 1;
      }
    }
    const count = this.ids.size;
    for (let field = 0; field < FIELDS.length; field++) {
      if (matching[field] === 0) continue;
      const idf = Math.log(1 + (count - matching[field]! + 0.5) / (matching[field]! + 0.5));
      const avg = this.totalLength[field]! / count;
      for (const [data, from, to] of lists) {
        for (let i = from; i < to; i += 2) {
          const docField = data[i]!;
          if (docField % FIELD_SLOTS !== field) continue;
          const docId = Math.floor(docField / FIELD_SLOTS);
          if (this.paths[docId] === undefined) continue;
          const tf = data[i + 1]!;
          const length = this.fieldLength[docId * FIELD_SLOTS + field]!;
          const raw = idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * length) / avg)));
          const scored = weight * BOOST[field]! * raw;
          const match = results.get(docId);
          if (match) {
            match.score += scored;
            if (!match.queryTerms.includes(queryTerm)) match.queryTerms.push(queryTerm);
            if (!match.terms.includes(derived)) match.terms.push(derived);
          } else results.set(docId, { score: scored, queryTerms: [queryTerm], terms: [derived] });
        }
      }
    }
  }

  private postingLists(termId: number): [ArrayLike<number>, number, number][] {
    const lists: [ArrayLike<number>, number, number][] = [];
    if (termId + 1 < this.base.offsets.length) lists.push([this.base.data, this.base.offsets[termId]!, this.base.offsets[termId + 1]!]);
    const extra = this.delta.get(termId);
    if (extra) lists.push([extra, 0, extra.length]);
    return lists;
  }

  private addDocument(document: SearchDocument): number {
    const docId = this.paths.length;
    this.paths.push(document.id);
    this.titles.push(document.title);
    this.categories.push(document.category);
    this.ids.set(document.id, docId);
    if ((docId + 1) * FIELD_SLOTS > this.fieldLength.length) {
      const grown = new Int32Array(Math.max(64, (docId + 1) * 2) * FIELD_SLOTS);
      grown.set(this.fieldLength);
      this.fieldLength = grown;
    }
    return docId;
  }

  /**
   * Term frequencies of a document's fields. The field length is the number of distinct
   * raw tokens and stop words are dropped after counting, exactly as minisearch's `add`.
   */
  private tokenizeInto(document: SearchDocument, docId: number, termId: (term: string) => number, emit: (termId: number, docField: number, tf: number) => void): void {
    const raw = new Map<string, number>();
    const counts = new Map<string, number>();
    for (let field = 0; field < FIELDS.length; field++) {
      const value = document[FIELDS[field]!];
      raw.clear();
      counts.clear();
      for (const token of tokenize(String(value ?? ""))) raw.set(token, (raw.get(token) ?? 0) + 1);
      this.fieldLength[docId * FIELD_SLOTS + field] = raw.size;
      this.totalLength[field]! += raw.size;
      for (const [token, n] of raw) {
        const term = processTerm(token);
        if (term) counts.set(term, (counts.get(term) ?? 0) + n);
      }
      for (const [term, tf] of counts) emit(termId(term), docId * FIELD_SLOTS + field, tf);
    }
  }
}

function andCombine(a: Map<number, Match>, b: Map<number, Match>): Map<number, Match> {
  const combined = new Map<number, Match>();
  for (const [docId, match] of b) {
    const existing = a.get(docId);
    if (!existing) continue;
    existing.score += match.score;
    for (const t of match.queryTerms) if (!existing.queryTerms.includes(t)) existing.queryTerms.push(t);
    for (const t of match.terms) if (!existing.terms.includes(t)) existing.terms.push(t);
    combined.set(docId, existing);
  }
  return combined;
}

function orCombine(a: Map<number, Match>, b: Map<number, Match>): Map<number, Match> {
  for (const [docId, match] of b) {
    const existing = a.get(docId);
    if (!existing) a.set(docId, match);
    else {
      existing.score += match.score;
      for (const t of match.queryTerms) if (!existing.queryTerms.includes(t)) existing.queryTerms.push(t);
      for (const t of match.terms) if (!existing.terms.includes(t)) existing.terms.push(t);
    }
  }
  return a;
}
