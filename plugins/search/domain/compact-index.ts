import type { Category } from "./categories.ts";
import type { SearchDocument } from "./document.ts";
import { EMPTY_SEGMENT, FIELD_SLOTS, IntList, compactSteps, segmentSteps, termSpan, type PostingSegment } from "./postings.ts";
import { processTerm } from "./query.ts";
import { runNow, type Steps } from "./slicing.ts";
import { TermDictionary } from "./term-dictionary.ts";
import { TokenCounter } from "./token-counter.ts";


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


/** A bulk build in progress (see {@link CompactIndex.builder}). */
export interface IndexBuilder {
  readonly documentCount: number;
  add(document: SearchDocument): void;
  finish(): CompactIndex;
  finishSteps(): Steps<CompactIndex>;
  snapshotSteps(): Steps<CompactIndex>;
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
 * The workspace full-text index: a dictionary of terms (minisearch's radix tree serves
 * the typo lookups, see term-dictionary.ts), postings and per-document field lengths
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
  private dictionary = new TermDictionary();
  /** Counts the terms of documents added one at a time ({@link upsert}). */
  private changeCounter: TokenCounter | undefined;
  private base: PostingSegment = EMPTY_SEGMENT;
  private delta = new Map<number, number[]>();
  private deadCount = 0;

  /**
   * A bulk build: documents are added one by one (the caller yields between batches), their
   * postings collected as int triples and sorted by term once at the end. `snapshotSteps`
   * gives a separate index of the documents added so far (the first build publishes these
   * so searches answer before it ends); the builder goes on afterwards.
   */
  static builder(): IndexBuilder {
    const index = new CompactIndex();
    // One dictionary for the build, its snapshots and the result: its typo tree is built
    // once and kept current, not once per snapshot. A snapshot sees terms added after it
    // (ids past its postings), which match nothing there.
    const dictionary = index.dictionary;
    const triples = new IntList();
    // One counter for the whole build: it keeps every raw token's term id (token-counter.ts).
    const counter = new TokenCounter((token) => {
      const term = processTerm(token);
      return term ? dictionary.addInBulk(term) : -1;
    });
    return {
      get documentCount() {
        return index.ids.size;
      },
      add(document) {
        if (index.ids.has(document.id)) return;
        index.tokenizeInto(document, index.addDocument(document), counter, (t, docField, tf) => triples.push3(t, docField, tf));
      },
      *finishSteps() {
        index.base = yield* segmentSteps(triples, triples.length, dictionary.size);
        return index;
      },
      finish() {
        return runNow(this.finishSteps());
      },
      *snapshotSteps() {
        const snapshot = new CompactIndex();
        const count = index.paths.length;
        snapshot.base = yield* segmentSteps(triples, triples.length, dictionary.size);
        snapshot.dictionary = dictionary;
        snapshot.paths = index.paths.slice();
        snapshot.titles = index.titles.slice();
        snapshot.categories = index.categories.slice();
        snapshot.fieldLength = index.fieldLength.slice(0, Math.max(64, count) * FIELD_SLOTS);
        for (const [path, docId] of index.ids) snapshot.ids.set(path, docId);
        index.totalLength.forEach((length, f) => (snapshot.totalLength[f] = length));
        return snapshot;
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
    index.dictionary = new TermDictionary(parts.terms);
    index.base = parts.postings;
    return index;
  }

  get documentCount(): number {
    return this.ids.size;
  }

  has(path: string): boolean {
    return this.ids.has(path);
  }

  /** Builds the term structures prefix and typo lookups need (see TermDictionary). */
  warm(): void {
    this.dictionary.warm();
  }

  /** {@link warm} in steps (see slicing.ts). */
  warmSteps(): Steps<void> {
    return this.dictionary.warmSteps();
  }

  hasTerm(term: string): boolean {
    return this.dictionary.get(term) !== undefined;
  }

  documentPaths(): IterableIterator<string> {
    return this.ids.keys();
  }

  /** Adds or replaces one document (watcher changes, start-up refresh). */
  upsert(document: SearchDocument): void {
    this.remove(document.id);
    const docId = this.addDocument(document);
    // One counter per index for its changes: a new one per change allocated its tables (and
    // counts as long as the dictionary) every time. Its ids stay valid: an index never
    // changes its dictionary, it only adds terms.
    this.changeCounter ??= new TokenCounter((token) => {
      const term = processTerm(token);
      return term ? this.dictionary.add(term) : -1;
    });
    this.tokenizeInto(document, docId, this.changeCounter, (termId, docField, tf) => {
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
    runNow(this.compactSteps());
  }

  /**
   * {@link compact} in steps. The new arrays are built aside and swapped in at the end, so
   * searches between steps see the index as it was; the caller must not change the index
   * until it ends (the search service runs it as one task of its queue).
   */
  *compactSteps(): Steps<void> {
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
    });
    yield;
    const base = yield* compactSteps(this.base, this.delta, this.dictionary.size, newId);
    for (let id = 0; id < paths.length; id++) this.ids.set(paths[id]!, id);
    this.base = base;
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
    const terms = [...this.dictionary.words];
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
   * Ranks the documents matching `terms` (lower-cased query words): files holding every
   * word, or when there are none, files holding any of them. Words of 3+ letters also match
   * as prefixes; words of 4+ letters that are not a term of the index tolerate typos (20%
   * of the length, at most 2 edits). A file's score is the sum over the words it matches
   * times the number of those words (minisearch's AND and OR). Scores accumulate in typed
   * arrays (no object per matching file); matched terms (for excerpts) are looked up for
   * the first `termsFor` hits only.
   */
  search(terms: string[], options: { filter?: (category: Category) => boolean; termsFor?: number } = {}): CompactHit[] {
    if (terms.length === 0 || this.ids.size === 0) return [];
    const size = this.paths.length;
    const total = new Float64Array(size);
    const matched = new Uint8Array(size);
    const termScore = new Float64Array(size);
    const touched: number[] = [];
    const expansions: number[][] = [];
    for (const term of terms) {
      touched.length = 0;
      expansions.push(this.scoreTerm(term, termScore, touched));
      for (const docId of touched) {
        total[docId]! += termScore[docId]!;
        matched[docId]! += 1;
        termScore[docId] = 0;
      }
    }
    let needed = terms.length;
    let docs = this.collect(matched, needed, options.filter);
    if (docs.length === 0 && terms.length > 1) docs = this.collect(matched, (needed = 1), options.filter);
    const hits = docs.map((docId) => ({ docId, score: total[docId]! * matched[docId]! }));
    hits.sort((x, y) => y.score - x.score || x.docId - y.docId);
    const termsFor = options.termsFor ?? 20;
    return hits.map(({ docId, score }, i) => ({
      path: this.paths[docId]!,
      score,
      title: this.titles[docId]!,
      category: this.categories[docId]!,
      terms: i < termsFor ? this.termsOf(docId, expansions) : [],
    }));
  }

  private collect(matched: Uint8Array, atLeast: number, filter: ((category: Category) => boolean) | undefined): number[] {
    const docs: number[] = [];
    for (let docId = 0; docId < matched.length; docId++) {
      if (matched[docId]! >= atLeast && this.paths[docId] !== undefined && (!filter || filter(this.categories[docId]!))) docs.push(docId);
    }
    return docs;
  }

  /** Scores one query word into `scores` (documents listed in `touched`); returns the term ids it expanded to. */
  private scoreTerm(term: string, scores: Float64Array, touched: number[]): number[] {
    const expanded: number[] = [];
    const add = (termId: number, weight: number) => {
      expanded.push(termId);
      this.score(termId, weight, scores, touched);
    };
    const exact = this.ownTerm(term);
    if (exact !== undefined) add(exact, 1);
    const prefix = term.length >= 3 ? this.dictionary.withPrefix(term) : undefined;
    const maxDistance = exact === undefined && term.length >= 4 ? Math.min(MAX_FUZZY, Math.round(term.length * 0.2)) : 0;
    const fuzzy = maxDistance ? this.dictionary.near(term, maxDistance) : undefined;
    if (prefix) {
      for (const [derived, termId] of prefix) {
        const distance = derived.length - term.length;
        if (!distance) continue;
        fuzzy?.delete(derived);
        add(termId, (WEIGHT.prefix * derived.length) / (derived.length + 0.3 * distance));
      }
    }
    if (fuzzy) {
      for (const [derived, [termId, distance]] of fuzzy) {
        if (distance) add(termId, (WEIGHT.fuzzy * derived.length) / (derived.length + distance));
      }
    }
    return expanded;
  }

  /** Adds one index term's BM25+ contribution, field by field as minisearch does (same float sums). */
  private score(termId: number, weight: number, scores: Float64Array, touched: number[]): void {
    const lists = this.postingLists(termId);
    const matching = [0, 0, 0];
    for (const [data, from, to] of lists) {
      for (let i = from; i < to; i += 2) {
        const docField = data[i]!;
        if (this.paths[(docField / FIELD_SLOTS) | 0] !== undefined) matching[docField % FIELD_SLOTS]! += 1;
      }
    }
    const count = this.ids.size;
    for (let field = 0; field < FIELDS.length; field++) {
      if (matching[field] === 0) continue;
      const idf = Math.log(1 + (count - matching[field]! + 0.5) / (matching[field]! + 0.5));
      const avg = this.totalLength[field]! / count;
      const factor = weight * BOOST[field]!;
      for (const [data, from, to] of lists) {
        for (let i = from; i < to; i += 2) {
          const docField = data[i]!;
          if (docField % FIELD_SLOTS !== field) continue;
          const docId = (docField / FIELD_SLOTS) | 0;
          if (this.paths[docId] === undefined) continue;
          const tf = data[i + 1]!;
          const length = this.fieldLength[docId * FIELD_SLOTS + field]!;
          const raw = idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * length) / avg)));
          if (scores[docId] === 0) touched.push(docId);
          scores[docId]! += factor * raw;
        }
      }
    }
  }

  /** The id of `term` when this index has postings for it (a snapshot shares a dictionary that goes on growing). */
  private ownTerm(term: string): number | undefined {
    const id = this.dictionary.get(term);
    return id !== undefined && (id + 1 < this.base.offsets.length || this.delta.has(id)) ? id : undefined;
  }

  /** The expanded terms whose postings hold `docId` (for its excerpt). */
  private termsOf(docId: number, expansions: number[][]): string[] {
    const terms = new Set<string>();
    const words = this.dictionary.words;
    for (const termIds of expansions) {
      for (const termId of termIds) {
        if (this.holds(termId, docId)) terms.add(words[termId]!);
      }
    }
    return [...terms];
  }

  /** Binary search in the base (its postings are in document order), a scan of the small delta. */
  private holds(termId: number, docId: number): boolean {
    if (termId + 1 < this.base.offsets.length) {
      const [data, start, stop] = termSpan(this.base, termId);
      const end = stop / 2;
      let lo = start / 2;
      let hi = end;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (data[mid * 2]! < docId * FIELD_SLOTS) lo = mid + 1;
        else hi = mid;
      }
      if (lo < end && ((data[lo * 2]! / FIELD_SLOTS) | 0) === docId) return true;
    }
    const extra = this.delta.get(termId);
    if (extra) for (let i = 0; i < extra.length; i += 2) if (((extra[i]! / FIELD_SLOTS) | 0) === docId) return true;
    return false;
  }

  private postingLists(termId: number): [ArrayLike<number>, number, number][] {
    const lists: [ArrayLike<number>, number, number][] = [];
    if (termId + 1 < this.base.offsets.length) lists.push(termSpan(this.base, termId));
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
  private tokenizeInto(document: SearchDocument, docId: number, counter: TokenCounter, emit: (termId: number, docField: number, tf: number) => void): void {
    for (let field = 0; field < FIELDS.length; field++) {
      const docField = docId * FIELD_SLOTS + field;
      const length = counter.countField(String(document[FIELDS[field]!] ?? ""), (termId, tf) => emit(termId, docField, tf));
      this.fieldLength[docField] = length;
      this.totalLength[field]! += length;
    }
  }

}
