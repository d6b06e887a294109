import { token } from "@muster/plugin";
import type { Category } from "./domain/categories.ts";
import type { SearchHit, SearchStats } from "./services/search-index.ts";

export type { Category, SearchHit, SearchStats };

/** One entry of {@link WorkspaceSearch.rank}. */
export interface RankedPath {
  /** Workspace-relative path. */
  path: string;
  /** Relevance, higher is better (comparable within one ranking only). */
  score: number;
  /** 1-based position in the ranking. */
  rank: number;
}

/** The workspace full-text index. */
export interface WorkspaceSearch {
  /** Loads the persisted index and refreshes it in the background. */
  start(): void;
  /**
   * Prepares the term lookups (prefix and typo matching) of the index that serves, in slices,
   * and of each loaded later; called once the host serves, so the start does not wait for it.
   * A query before it builds what it needs on demand.
   */
  warmUp(): void;
  search(q: string, options: { category?: Category; limit: number }): Promise<{ total: number; results: SearchHit[] }>;
  /**
   * The full-text ranking of `q` for fusion with other rankers (hybrid search): paths best
   * first, with the score and 1-based rank; no excerpts are read. Same query rules as
   * `search` (typos, prefixes, title boost); an empty list for a query with no searchable word.
   */
  rank(q: string, options: { category?: Category; limit: number }): Promise<RankedPath[]>;
  /** Rebuilds the index from the workspace. */
  reindex(): Promise<{ filesIndexed: number; duration: number }>;
  /** Applies one watcher change (queued behind other changes). */
  fileChanged(change: { type: string; path: string }): Promise<void>;
  stats(): SearchStats;
  /** Saves the index and stops accepting changes (shutdown). */
  stop(): Promise<void>;
}

/** The workspace full-text index. Depend on the `search` plugin to use it. */
export const SEARCH = token<WorkspaceSearch>("search.index");
