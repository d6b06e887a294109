import SearchableMap from "minisearch/SearchableMap";

/**
 * The index's terms: id <-> term in a Map and an array (cheap to build, so a reloaded
 * index is searchable at once), a sorted copy for prefix ranges, and minisearch's radix
 * tree for typo lookups (term -> terms within an edit distance). The sorted copy and the
 * tree are built on first use or by {@link warm}: building the tree for ~27,000 terms took
 * 200 ms of the restart on a busy machine.
 */
export class TermDictionary {
  private readonly ids = new Map<string, number>();
  private readonly list: string[];
  private sorted: string[] | undefined;
  private tree: SearchableMap<number> | undefined;

  constructor(words: string[] = []) {
    this.list = words;
    words.forEach((word, id) => this.ids.set(word, id));
  }

  get size(): number {
    return this.list.length;
  }

  /** Every term by id (do not modify). */
  get words(): readonly string[] {
    return this.list;
  }

  get(term: string): number | undefined {
    return this.ids.get(term);
  }

  /** The id of `term`, added when new. */
  add(term: string): number {
    let id = this.ids.get(term);
    if (id !== undefined) return id;
    id = this.list.length;
    this.list.push(term);
    this.ids.set(term, id);
    if (this.sorted) this.sorted.splice(lowerBound(this.sorted, term), 0, term);
    this.tree?.set(term, id);
    return id;
  }

  /** Terms starting with `prefix` (the prefix itself included when it is a term), in term order. */
  withPrefix(prefix: string): [string, number][] {
    const sorted = (this.sorted ??= [...this.list].sort(compare));
    const found: [string, number][] = [];
    for (let i = lowerBound(sorted, prefix); i < sorted.length && sorted[i]!.startsWith(prefix); i++) found.push([sorted[i]!, this.ids.get(sorted[i]!)!]);
    return found;
  }

  /** Terms within `maxDistance` edits of `term`: term -> [id, distance]. */
  near(term: string, maxDistance: number): Map<string, [number, number]> {
    this.tree ??= SearchableMap.from(this.list.map((word, id): [string, number] => [word, id])) as SearchableMap<number>;
    return this.tree.fuzzyGet(term, maxDistance);
  }

  /** Builds the prefix and typo structures now (after a load, off the first query's path). */
  warm(): void {
    this.withPrefix("\uffff");
    this.near("", 0);
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function lowerBound(sorted: string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
