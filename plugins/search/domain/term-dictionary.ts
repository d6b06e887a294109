import SearchableMap from "minisearch/SearchableMap";
import { runNow, type Steps } from "./slicing.ts";

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

  /**
   * {@link add} for a bulk build: a new term drops the sorted copy instead of being spliced
   * into it (one splice per new term cost O(terms) each); the next prefix lookup sorts again.
   */
  addInBulk(term: string): number {
    const id = this.ids.get(term);
    if (id !== undefined) return id;
    this.sorted = undefined;
    return this.add(term);
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
    runNow(this.warmSteps());
  }

  /**
   * {@link warm} in steps: the sort is one step (~10 ms for 27,000 terms), the tree is
   * filled a few thousand terms at a time aside and kept unless a query built one meanwhile.
   * Terms added while it fills are picked up (the loop reads the live list).
   */
  *warmSteps(): Steps<void> {
    this.withPrefix("\uffff");
    if (this.tree) return;
    yield;
    const tree = new SearchableMap<number>();
    for (let id = 0; id < this.list.length; id++) {
      tree.set(this.list[id]!, id);
      if (id % 2_048 === 2_047) yield;
    }
    this.tree ??= tree;
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
