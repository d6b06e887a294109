import { stat } from "node:fs/promises";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Database, Logger, WorkspacePaths } from "@muster/plugin";
import type { SearchConfig } from "../config.ts";
import { searchErrors } from "../errors.ts";
import type { Category } from "../domain/categories.ts";
import { isIndexablePath } from "../domain/path-rules.ts";
import { INDEX_FORMAT, queryTerms } from "../domain/query.ts";
import type { RankedPath, WorkspaceSearch } from "../tokens.ts";
import { walkWorkspace, type FoundFile } from "../domain/walk.ts";
import { CompactIndex, type CompactHit } from "../domain/compact-index.ts";
import { decodeIndex, encodeIndex } from "../domain/index-codec.ts";
import { IndexStore, type FileRow } from "./index-store.ts";

/** Distinct query words that are searched; the rest of a longer query is ignored. */
export const MAX_QUERY_TERMS = 12;
import { isoOfMtime, loadFile, readExcerpt, type Loaded, type SkipReason } from "./file-loader.ts";

/** Why a search before the first index build is refused. */
const STILL_BUILDING = "it is still being built; retry shortly";

export interface SearchHit {
  path: string;
  score: number;
  excerpt: string;
  title: string;
  category: Category;
}

/** What the last full build, start-up load or re-index did. */
export interface RefreshReport {
  kind: "build" | "load" | "reindex";
  /** Files read and (re)indexed. */
  read: number;
  /** Files left as they were because size and mtime matched the file index. */
  unchanged: number;
  /** Index entries dropped because their file is gone or no longer indexable. */
  removed: number;
  /** True when `maxFiles` stopped the walk. */
  truncated: boolean;
  durationMs: number;
  /** Where the time went: listing the workspace, reading and tokenising files, building or loading the index. */
  phases: { walkMs: number; readMs: number; indexMs: number };
  finishedAt: string;
}

export interface SearchStats {
  totalFiles: number;
  indexedAt: string | null;
  state: "loading" | "ready";
  /** True while a build, re-index or start-up refresh runs (searches answer from the index as it is). */
  indexing: boolean;
  lastRefresh: RefreshReport | null;
  skipped: { tooLarge: number; binary: number; invalidUtf8: number; symlinksOutside: number };
  /** Files whose YAML or front matter does not parse; their text is indexed anyway. */
  malformed: { count: number; files: { path: string; problem: string }[] };
  /** Watcher events applied since start. */
  eventsApplied: number;
  /** The last write of the index to SQLite. */
  lastSave: { durationMs: number; bytes: number; savedAt: string } | null;
}


class Stopped extends Error {}

const BATCH = 64;
const MAX_REPORTED_PROBLEMS = 20;

export interface SearchIndexDeps {
  db: () => Database;
  workspace: WorkspacePaths;
  logger: Logger;
  config: SearchConfig;
}

/**
 * The workspace full-text index (minisearch). All changes run one at a time through a
 * queue; searches read the current instance and never wait for a rebuild, which builds a
 * new instance and swaps it in. The whole index is saved after builds, at shutdown and
 * after many changes; in between, a change only invalidates its file's row (see
 * {@link IndexStore}).
 */
export class SearchIndex implements WorkspaceSearch {
  private index = CompactIndex.build([]);
  /** Builds, re-indexes and start-up refreshes running. */
  private indexing = 0;
  private rows = new Map<string, FileRow>();
  private readonly store: IndexStore;
  private queue: Promise<unknown> = Promise.resolve();
  private ready: Promise<void> | undefined;
  private isReady = false;
  private running: Promise<{ filesIndexed: number; duration: number }> | undefined;
  private stopped = false;
  /** Paths whose live entry differs from the saved index since the last full save. */
  private readonly stale = new Set<string>();
  /** Stale paths whose rows are not deleted yet (done at the end of each change). */
  private readonly unflushed = new Set<string>();
  /** A full build is not saved yet. */
  private needsFullSave = false;
  private saveTimer: NodeJS.Timeout | undefined;
  private indexedAt: string | null = null;
  private lastRefresh: RefreshReport | null = null;
  private readonly skipped = new Map<string, SkipReason>();
  private readonly problems = new Map<string, string>();
  private symlinksOutside = 0;
  private eventsApplied = 0;
  private lastSave: SearchStats["lastSave"] = null;

  private readonly deps: SearchIndexDeps;
  constructor(deps: SearchIndexDeps) {
    this.deps = deps;
    this.store = new IndexStore(deps.db);
  }

  /** Loads the persisted index and refreshes it in the background (the server is not held up). */
  start(): void {
    this.ready ??= this.enqueue(() => this.loadOrBuild()).then(
      () => {
        this.isReady = true;
        this.warmSoon();
      },
      (error) => {
        this.isReady = true;
        if (!(error instanceof Stopped)) this.deps.logger.error({ err: error }, "search index could not be loaded; it starts empty (POST /api/search rebuilds it)");
      },
    );
  }

  /** Searches the index with the first {@link MAX_QUERY_TERMS} distinct words of `q`; waits (bounded) for the start-up load. */
  async search(q: string, options: { category?: Category; limit: number }): Promise<{ total: number; results: SearchHit[] }> {
    await this.whenReady();
    const { terms, hits } = this.ranked(q, options.category, options.limit);
    const results = hits.slice(0, options.limit).map((hit) => ({
      path: hit.path,
      score: roundScore(hit.score),
      excerpt: this.excerpt(hit.path, hit.terms, terms),
      title: hit.title,
      category: hit.category,
    }));
    return { total: hits.length, results };
  }

  async rank(q: string, options: { category?: Category; limit: number }): Promise<RankedPath[]> {
    await this.whenReady();
    return this.ranked(q, options.category, 0)
      .hits.slice(0, options.limit)
      .map((hit, i) => ({ path: hit.path, score: roundScore(hit.score), rank: i + 1 }));
  }

  private ranked(q: string, category: Category | undefined, limit: number): { terms: string[]; hits: CompactHit[] } {
    const filter = category ? (c: Category) => c === category : undefined;
    // Each word expands to its prefixes and near-misses and the search runs on the event
    // loop: repeated or dozens of short words made one request block the server for
    // seconds. Distinct words only, and at most MAX_QUERY_TERMS of them.
    const words = [...new Set(queryTerms(q))].slice(0, MAX_QUERY_TERMS);
    const terms = [...new Set(words.map((w) => w.toLowerCase()))];
    // Several words that never occur together rank the files holding any of them.
    return { terms: words, hits: this.index.search(terms, { filter, termsFor: limit }) };
  }

  /** Rebuilds the whole index from the workspace; concurrent calls share one run. */
  reindex(): Promise<{ filesIndexed: number; duration: number }> {
    this.running ??= this.enqueue(async () => {
      const report = await this.indexingWhile(() => this.build("reindex"));
      return { filesIndexed: this.index.documentCount, duration: report.durationMs };
    })
      .catch((error) => {
        throw error instanceof Stopped ? searchErrors.SEARCH_INDEX_UNAVAILABLE({ reason: "the server is shutting down" }) : error;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** Applies a watcher event (`workspace.file.changed`) for one workspace-relative path. */
  fileChanged(change: { type: string; path: string }): Promise<void> {
    if (typeof change?.path !== "string" || !isIndexablePath(change.path)) return Promise.resolve();
    return this.enqueue(async () => {
      if (change.type === "deleted") this.drop(change.path);
      else await this.indexOne(change.path);
      this.eventsApplied += 1;
      this.indexedAt = new Date().toISOString();
      this.flushInvalidations();
    }).catch((error) => {
      if (!(error instanceof Stopped)) throw error; // A change arriving during shutdown is read at the next start.
    });
  }

  stats(): SearchStats {
    const count = (reason: SkipReason) => [...this.skipped.values()].filter((r) => r === reason).length;
    return {
      totalFiles: this.index.documentCount,
      indexedAt: this.indexedAt,
      state: this.isReady ? "ready" : "loading",
      indexing: this.indexing > 0 || !this.isReady,
      lastRefresh: this.lastRefresh,
      skipped: { tooLarge: count("tooLarge"), binary: count("binary"), invalidUtf8: count("invalidUtf8"), symlinksOutside: this.symlinksOutside },
      malformed: {
        count: this.problems.size,
        files: [...this.problems].slice(0, MAX_REPORTED_PROBLEMS).map(([path, problem]) => ({ path, problem })),
      },
      eventsApplied: this.eventsApplied,
      lastSave: this.lastSave,
    };
  }

  /** Stops background work and persists pending changes (the database is still open). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.saveTimer);
    await this.queue.catch(() => undefined);
    if (this.isReady) {
      this.flushInvalidations();
      this.persist();
    }
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.stopped) throw new Stopped("search index stopped");
      return task();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async whenReady(): Promise<void> {
    if (this.isReady) return;
    if (!this.ready) throw searchErrors.SEARCH_INDEX_UNAVAILABLE({ reason: STILL_BUILDING });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(searchErrors.SEARCH_INDEX_UNAVAILABLE({ reason: STILL_BUILDING }, { headers: { "Retry-After": "2" } })), this.deps.config.readyTimeoutMs);
    });
    try {
      await Promise.race([this.ready, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Counts a running build or refresh for `stats.indexing`. */
  private async indexingWhile<T>(work: () => Promise<T>): Promise<T> {
    this.indexing += 1;
    try {
      return await work();
    } finally {
      this.indexing -= 1;
    }
  }

  private loadOrBuild(): Promise<void> {
    return this.indexingWhile(() => this.loadOrBuildNow());
  }

  private async loadOrBuildNow(): Promise<void> {
    const started = performance.now();
    const persisted = await this.store.loadIndex();
    const rows = await this.store.loadRows();
    if (persisted?.format.startsWith(`${INDEX_FORMAT}/`)) {
      try {
        // Synchronous (searches wait for the load anyway): see index-codec.ts for the format.
        const decodeStarted = performance.now();
        const index = decodeIndex(persisted.format.slice(INDEX_FORMAT.length + 1), persisted.json, persisted.data);
        const ids = [...index.documentPaths()];
        this.index = index;
        this.rows = rows;
        await this.refresh(ids, started, performance.now() - decodeStarted);
        return;
      } catch (error) {
        if (error instanceof Stopped) throw error;
        this.index = CompactIndex.build([]);
        this.deps.logger.warn({ err: error }, "persisted search index is unreadable; rebuilding");
      }
    }
    this.rows = rows; // Keeps createdAt of files indexed before.
    await this.build("build");
  }

  /**
   * After a load: re-reads the files whose row is missing or whose size or mtime differ
   * (their saved entry is stale or absent) and drops the documents whose file is gone.
   */
  private async refresh(savedIds: string[], started: number, indexMs: number): Promise<void> {
    const walkStarted = performance.now();
    const walk = await this.walk();
    const walkMs = performance.now() - walkStarted;
    const changed: FoundFile[] = [];
    const seen = new Set<string>();
    let unchanged = 0;
    for (const file of walk.files) {
      seen.add(file.path);
      const row = this.rows.get(file.path);
      if (row && row.size === file.size && row.lastModified === isoOfMtime(file.mtimeMs) && this.index.has(file.path)) unchanged += 1;
      else changed.push(file);
    }
    let removed = 0;
    for (const path of new Set([...savedIds, ...this.rows.keys()])) {
      if (!seen.has(path)) removed += this.drop(path) ? 1 : 0;
    }
    for (let i = 0; i < changed.length; i += BATCH) {
      if (this.stopped) throw new Stopped("search index stopped");
      const batch = changed.slice(i, i + BATCH);
      const loaded = batch.map((f) => this.load(f));
      loaded.forEach((result, j) => this.apply(batch[j]!.path, result));
      if (i + BATCH < changed.length) await yieldToEventLoop();
    }
    this.flushInvalidations();
    this.indexedAt = new Date().toISOString();
    const readMs = performance.now() - walkStarted - walkMs;
    this.report({ kind: "load", read: changed.length, unchanged, removed, truncated: walk.truncated }, started, { walkMs, readMs, indexMs });
  }

  /** Reads every searchable file into a new index and swaps it in. */
  private async build(kind: "build" | "reindex"): Promise<RefreshReport> {
    const started = performance.now();
    const walk = await this.walk();
    const walkMs = performance.now() - started;
    const builder = CompactIndex.builder();
    const rows = new Map<string, FileRow>();
    this.skipped.clear();
    this.problems.clear();
    for (let i = 0; i < walk.files.length; i += BATCH) {
      if (this.stopped) throw new Stopped("search index stopped");
      const batch = walk.files.slice(i, i + BATCH);
      const loaded = batch.map((f) => this.load(f));
      loaded.forEach((result, j) => {
        const path = batch[j]!.path;
        if (result.kind === "indexed") {
          builder.add(result.document);
          rows.set(path, result.row);
          this.noteProblem(path, result.problem);
        } else if (result.kind === "skipped") this.skipped.set(path, result.reason);
      });
      // Let queries (answered from the previous index) and other requests through.
      await yieldToEventLoop();
    }
    const removed = [...this.rows.keys()].filter((path) => !rows.has(path)).length;
    const finishStarted = performance.now();
    this.index = builder.finish();
    this.warmSoon();
    const indexMs = performance.now() - finishStarted;
    const readMs = finishStarted - started - walkMs;
    this.rows = rows;
    this.indexedAt = new Date().toISOString();
    // Saved by the next queued task: the new index serves searches before it is written.
    this.needsFullSave = true;
    this.unflushed.clear();
    this.saveSoon();
    const report = this.report({ kind, read: rows.size, unchanged: 0, removed, truncated: walk.truncated }, started, { walkMs, readMs, indexMs });
    this.deps.logger.info({ files: rows.size, durationMs: report.durationMs, skipped: this.skipped.size, malformed: this.problems.size }, "search index built");
    return report;
  }

  /** Builds the prefix and typo lookups off the load's path, before the first queries need them. */
  private warmSoon(): void {
    const index = this.index;
    setImmediate(() => index.warm()).unref();
  }

  private async walk() {
    const walk = await walkWorkspace({ workspace: this.deps.workspace, maxFiles: this.deps.config.maxFiles });
    this.symlinksOutside = walk.symlinksOutside;
    if (walk.truncated) this.deps.logger.warn({ maxFiles: this.deps.config.maxFiles }, "workspace has more searchable files than search.maxFiles; the rest is not indexed");
    return walk;
  }

  /** Re-reads one file (watcher event) and updates or drops its entry. */
  private async indexOne(path: string): Promise<void> {
    let absolutePath: string;
    try {
      absolutePath = this.deps.workspace.resolve(path);
    } catch {
      return; // Outside the workspace (or through a link leaving it): never indexed.
    }
    const info = await stat(absolutePath).catch(() => undefined);
    if (!info?.isFile()) {
      this.drop(path);
      return;
    }
    this.apply(path, this.load({ path, absolutePath, size: info.size, mtimeMs: info.mtimeMs }));
  }

  private apply(path: string, result: Loaded): void {
    if (result.kind !== "indexed") {
      this.drop(path);
      if (result.kind === "skipped") this.skipped.set(path, result.reason);
      return;
    }
    this.index.upsert(result.document);
    this.rows.set(path, result.row);
    this.skipped.delete(path);
    this.noteProblem(path, result.problem);
    this.markStale(path);
  }

  /** Removes a path from the index; true when it was there. */
  private drop(path: string): boolean {
    this.skipped.delete(path);
    this.problems.delete(path);
    const hadRow = this.rows.delete(path);
    const indexed = this.index.remove(path);
    if (indexed || hadRow) this.markStale(path);
    return indexed;
  }

  private noteProblem(path: string, problem: string | undefined): void {
    if (!problem) {
      this.problems.delete(path);
      return;
    }
    this.problems.set(path, problem);
    this.deps.logger.warn({ path, problem }, "search: file indexed as plain text");
  }

  private load(file: FoundFile): Loaded {
    return loadFile(file, this.deps.config.maxFileBytes, this.rows.get(file.path));
  }

  private excerpt(path: string, matched: string[], queryWords: string[]): string {
    return readExcerpt(this.deps.workspace, path, { max: this.deps.config.maxFileBytes, hint: this.rows.get(path)?.size }, matched, queryWords);
  }

  private markStale(path: string): void {
    this.stale.add(path);
    this.unflushed.add(path);
  }

  /**
   * Deletes the rows of paths changed since the last full save (a cheap statement, so the
   * event loop is never held by a whole-index write after a watcher event). Once many
   * entries are stale, a full save is scheduled `saveDelayMs` later, which bounds what the
   * next start has to re-read.
   */
  private flushInvalidations(): void {
    if (this.unflushed.size > 0) {
      try {
        this.store.invalidate(this.unflushed);
        this.unflushed.clear();
      } catch (error) {
        this.deps.logger.error({ err: error }, "search file index could not be updated");
      }
    }
    const threshold = Math.max(this.deps.config.fullSaveAfterChanges, Math.ceil(this.index.documentCount / 10));
    if (this.stale.size >= threshold) this.scheduleSave();
  }

  /** Saves in the next queued task. */
  private saveSoon(): void {
    this.enqueue(async () => this.persist()).catch(() => undefined);
  }

  /** Full save `saveDelayMs` from now, unless one is already scheduled. */
  private scheduleSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.saveSoon();
    }, this.deps.config.saveDelayMs);
    this.saveTimer.unref();
  }

  /** Writes the whole index and every row when anything differs from the saved state. */
  private persist(): void {
    if (this.stale.size === 0 && !this.needsFullSave) return;
    try {
      const started = performance.now();
      const { codec, text, data } = encodeIndex(this.index);
      this.store.saveAll({ format: `${INDEX_FORMAT}/${codec}`, json: text, data, rows: this.rows.values() });
      this.lastSave = { durationMs: Math.round(performance.now() - started), bytes: Buffer.byteLength(text) + (data?.length ?? 0), savedAt: new Date().toISOString() };
      this.stale.clear();
      this.unflushed.clear();
      this.needsFullSave = false;
    } catch (error) {
      // The in-memory index stays correct; the next start re-reads what the rows do not vouch for.
      this.deps.logger.error({ err: error }, "search index could not be saved");
    }
  }

  private report(fields: Omit<RefreshReport, "durationMs" | "finishedAt" | "phases">, started: number, phases: RefreshReport["phases"]): RefreshReport {
    const round = (ms: number) => Math.round(ms);
    this.lastRefresh = {
      ...fields,
      durationMs: round(performance.now() - started),
      phases: { walkMs: round(phases.walkMs), readMs: round(phases.readMs), indexMs: round(phases.indexMs) },
      finishedAt: new Date().toISOString(),
    };
    return this.lastRefresh;
  }
}

/** Scores as the API shows them (3 decimals). */
const roundScore = (score: number) => Math.round(score * 1000) / 1000;
