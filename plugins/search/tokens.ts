import { token } from "@muster/plugin";
import type { Category } from "./domain/categories.ts";
import type { SearchHit, SearchStats } from "./services/search-index.ts";

export type { Category, SearchHit, SearchStats };

/** The workspace full-text index. */
export interface WorkspaceSearch {
  /** Loads the persisted index and refreshes it in the background. */
  start(): void;
  search(q: string, options: { category?: Category; limit: number }): Promise<{ total: number; results: SearchHit[] }>;
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
