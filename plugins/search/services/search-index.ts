import { lstatSync, realpathSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { Database, Logger, WorkspacePaths, WorkspaceWatch } from "@muster/plugin";
import type { SearchConfig } from "../config.ts";
import { searchErrors } from "../errors.ts";
import type { Category } from "../domain/categories.ts";
import { isIndexablePath } from "../domain/path-rules.ts";
import { INDEX_FORMAT, queryTerms } from "../domain/query.ts";
import type { RankedPath, WorkspaceSearch } from "../tokens.ts";
import { walkWorkspace, WALK_SLICE_MS, type FoundFile, type WalkOptions } from "../domain/walk.ts";
import { CompactIndex, type CompactHit } from "../domain/compact-index.ts";
import { decodeSteps, encodeIndexParts } from "../domain/index-codec.ts";
import { SLICE_MS, Slicer, runSliced, whileWanted } from "../domain/slicing.ts";
import { IndexStore, type FileRow } from "./index-store.ts";
import { isoOfMtime, loadFile, readExcerpt, type Loaded, type SkipReason } from "./file-loader.ts";
import { buildKeptMemory, releaseMemory } from "./release-memory.ts";
import { startBuilderProcess, type BuilderOutput, type BuilderProcess, type EncodedIndexFiles } from "./builder-process.ts";

/** Distinct query words that are searched; the rest of a longer query is ignored. */
export const MAX_QUERY_TERMS = 12;

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
  /** Where the files were read and indexed: in a child process for a full build of `search.builderProcessMinFiles` files or more, else on the host's thread. */
  builder: "main-thread" | "child-process";
  finishedAt: string;
}

export interface SearchStats {
  totalFiles: number;
  indexedAt: string | null;
  /** `ready` once a complete index serves (the saved one decoded, or the first build done); `loading` before (searches answer from what is indexed so far). */
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

/** Files read between two pauses at most (a pause also comes when a time slice is spent). */
const MAX_SLICE_FILES = 256;
const MAX_REPORTED_PROBLEMS = 20;
/** After a full build's save, the memory V8 kept from it is released this much later (see release-memory.ts). */
const RELEASE_MEMORY_DELAY_MS = 1_000;

/** How far a build or refresh got, at a pause between two slices of files. */
export interface BuildProgress {
  kind: RefreshReport["kind"];
  /** Files read so far. */
  read: number;
  /** Documents in the partial index searches answer from (first build only; 0 before the first publication). */
  published: number;
}

/** Test seams (a test plugin registers the service with them; production passes none). */
export interface SearchSeams {
  /** Awaited at every pause of a build or refresh on the main thread (a test holds the start-up build here; no builder process is used then). */
  betweenSlices?(progress: BuildProgress): Promise<void>;
  /** Stand in for the host watcher's `watching()` and `scanned()` (a test takes the mark or ends the scan at a chosen moment). */
  watching?(): Promise<boolean>;
  scanned?(): Promise<boolean>;
  /** The builder process's entry (a test substitutes one that dies). */
  builderEntry?: URL;
  /** Where the builder process's private directory is made (a test checks it is removed). */
  builderTempRoot?: string;
}

export interface SearchIndexDeps {
  db: () => Database;
  workspace: WorkspacePaths;
  /** The host watcher: a build walks once it has its mark, the start-up refresh once its initial scan ended (see {@link SearchIndex.walk}). */
  watch?: Pick<WorkspaceWatch, "watching" | "scanned">;
  logger: Logger;
  config: SearchConfig;
  seams?: SearchSeams;
  /**
   * Whether this instance writes the saved index and its rows (absent: always). In team mode
   * only the primary does (services/team.ts): the instances share the database, and two full
   * saves interleaving would delete each other's blob parts and rows.
   */
  persists?: () => boolean;
  /** Called when what {@link SearchIndex.stats} answers may have changed (team mode publishes it). */
  onChange?: () => void;
}

export type ReindexResult = { filesIndexed: number; duration: number };

/** A build's new index and the rows of its files, before it is swapped in. */
interface BuiltIndex {
  index: CompactIndex;
  rows: Map<string, FileRow>;
  readMs: number;
  indexMs: number;
  builder: RefreshReport["builder"];
}

/**
 * The workspace full-text index. All changes run one at a time through a queue; searches
 * never wait: they read the current instance (during the first build, a partial index of
 * the files read so far, republished as the build goes; during a rebuild, the previous
 * index). The whole index is saved after builds, at shutdown and after many changes; in
 * between, a change only invalidates its file's row (see {@link IndexStore}). Long steps
 * (reading files, sorting postings, decoding, saving) run in time slices with the event
 * loop let in between (see domain/slicing.ts).
 */
export class SearchIndex implements WorkspaceSearch {
  private index = CompactIndex.build([]);
  /** Builds, re-indexes and start-up refreshes running. */
  private indexing = 0;
  private rows = new Map<string, FileRow>();
  private readonly store: IndexStore;
  private queue: Promise<unknown> = Promise.resolve();
  private started = false;
  /** The host serves (warmUp was called): an index loaded from now on prepares its lookups at once. */
  private serving = false;
  /** The start-up load or build has ended (`stats.indexing` stays true until then). */
  private startupDone = false;
  /** A complete index serves: the saved one is decoded or the first build ended. */
  private complete = false;
  /** Settles once the start-up has chosen between loading the saved index and a full build. */
  private startupChoice: Promise<void> | undefined;
  private chosen: () => void = () => undefined;
  /** Settles once the start-up load or build has ended (or failed). */
  private readonly startupEnded: Promise<void>;
  private ended: () => void = () => undefined;
  /** The start-up full build (no usable saved index), which `POST /api/search` shares. */
  private startupBuild: Promise<ReindexResult> | undefined;
  private running: Promise<ReindexResult> | undefined;
  private stopped = false;
  /** The builder process of the build running, ended at shutdown. */
  private builder: BuilderProcess | undefined;
  /** The watcher's initial scan has ended: from now on every change is published. */
  private scanEnded = false;
  /** Paths whose live entry differs from the saved index since the last full save. */
  private readonly stale = new Set<string>();
  /** Stale paths whose rows are not deleted yet (done at the end of each change). */
  private readonly unflushed = new Set<string>();
  /** A full build is not saved yet. */
  private needsFullSave = false;
  private saveTimer: NodeJS.Timeout | undefined;
  /** A full build or start-up load ran since the last memory release (see {@link releaseMemorySoon}). */
  private builtSinceRelease = false;
  /** The most the process's RSS grew during one build or load since the last release. */
  private buildGrowth = 0;
  private releaseTimer: NodeJS.Timeout | undefined;
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
    void deps.watch?.scanned().then((ended) => (this.scanEnded = ended));
    this.startupEnded = new Promise<void>((resolve) => (this.ended = resolve));
  }

  /** Resolves once the start-up load or build has ended (at once on an index never started). */
  startedUp(): Promise<void> {
    return this.started ? this.startupEnded : Promise.resolve();
  }

  /**
   * This instance now writes the saved index (team mode: it became the primary): the whole
   * index is saved soon, replacing what the previous writer left.
   */
  takeOverSaving(): void {
    if (!this.complete) return; // The start-up's own save comes once it ends.
    this.needsFullSave = true;
    this.saveSoon();
  }

  warmUp(): void {
    this.serving = true;
    this.warmSoon();
  }

  /** Loads the persisted index and refreshes it in the background (the server is not held up). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.startupChoice = new Promise<void>((resolve) => (this.chosen = resolve));
    const finished = () => {
      this.chosen();
      this.startupChoice = undefined;
      this.startupBuild = undefined;
      this.startupDone = true;
      this.complete = true;
      this.ended();
      this.deps.onChange?.();
    };
    this.enqueue(() => this.loadOrBuild()).then(
      () => {
        finished();
        this.warmSoon();
      },
      (error) => {
        finished();
        if (!(error instanceof Stopped)) this.deps.logger.error({ err: error }, "search index could not be loaded; it starts empty (POST /api/search rebuilds it)");
      },
    );
  }

  /**
   * Searches the index with the first {@link MAX_QUERY_TERMS} distinct words of `q`. Never
   * waits for the start-up: answers from what is indexed so far (`stats.indexing` says so).
   */
  async search(q: string, options: { category?: Category; limit: number }): Promise<{ total: number; results: SearchHit[] }> {
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

  /** Like {@link search}, from what is indexed so far (hybrid search ranks with it during the start-up build). */
  async rank(q: string, options: { category?: Category; limit: number }): Promise<RankedPath[]> {
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

  /**
   * Rebuilds the whole index from the workspace; concurrent calls share one run. During the
   * start-up full build (no usable saved index) it answers with that build, which is the
   * same work: the client waits for the rest of it instead of for it and then a second one.
   */
  async reindex(): Promise<ReindexResult> {
    if (this.startupChoice) await this.startupChoice;
    if (this.startupBuild) return this.startupBuild;
    this.running ??= this.enqueue(async () => {
      const report = await this.indexingWhile(() => this.build("reindex"));
      return { filesIndexed: this.index.documentCount, duration: report.durationMs };
    })
      .catch(unavailableWhenStopped)
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
      await this.flushInvalidations();
      this.deps.onChange?.();
    }).catch((error) => {
      if (!(error instanceof Stopped)) throw error; // A change arriving during shutdown is read at the next start.
    });
  }

  stats(): SearchStats {
    const count = (reason: SkipReason) => [...this.skipped.values()].filter((r) => r === reason).length;
    return {
      totalFiles: this.index.documentCount,
      indexedAt: this.indexedAt,
      state: this.complete ? "ready" : "loading",
      indexing: this.indexing > 0 || (this.started && !this.startupDone),
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
    clearTimeout(this.releaseTimer);
    await this.builder?.stop();
    await this.queue.catch(() => undefined);
    if (this.complete) {
      await this.flushInvalidations();
      await this.persist();
    }
  }

  /** Ends a queued task, build or refresh at shutdown (callers of `reindex` then get 503). */
  private throwIfStopped(): void {
    if (this.stopped) throw new Stopped("search index stopped");
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      this.throwIfStopped();
      return task();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Counts a running build or refresh for `stats.indexing`. */
  private async indexingWhile<T>(work: () => Promise<T>): Promise<T> {
    this.indexing += 1;
    const rssBefore = process.memoryUsage.rss();
    this.deps.onChange?.();
    try {
      return await work();
    } finally {
      this.buildGrowth = Math.max(this.buildGrowth, process.memoryUsage.rss() - rssBefore);
      this.indexing -= 1;
      this.deps.onChange?.();
    }
  }

  private loadOrBuild(): Promise<void> {
    return this.indexingWhile(() => this.loadOrBuildNow());
  }

  private async loadOrBuildNow(): Promise<void> {
    const started = performance.now();
    const persisted = await this.store.loadIndex();
    if (persisted?.format.startsWith(`${INDEX_FORMAT}/`)) {
      let index: CompactIndex | undefined;
      const decodeStarted = performance.now();
      try {
        // In slices (see index-codec.ts for the format); searches answer from the empty index meanwhile.
        index = await runSliced(decodeSteps(persisted.format.slice(INDEX_FORMAT.length + 1), persisted.json, persisted.data));
      } catch (error) {
        this.deps.logger.warn({ err: error }, "persisted search index is unreadable; rebuilding");
      }
      if (index) {
        this.chosen();
        const ids = [...index.documentPaths()];
        this.index = index;
        this.complete = true; // Searches answer from it while the refresh runs.
        // Before the host serves, warmUp() prepares its lookups once it does (issue 26).
        if (this.serving) this.warmSoon();
        await this.refresh(ids, started, performance.now() - decodeStarted);
        // Decoding and the walk grow V8's young generation as a build does.
        this.builtSinceRelease = true;
        this.releaseMemorySoon();
        return;
      }
    }
    this.rows = await this.store.loadRows(); // Keeps createdAt of files indexed before.
    const build = this.build("build", { publish: true });
    this.startupBuild = build.then((report) => ({ filesIndexed: this.index.documentCount, duration: report.durationMs }), unavailableWhenStopped);
    this.startupBuild.catch(() => undefined); // Only POST /api/search callers see its failure.
    this.chosen();
    await build;
  }

  /**
   * After a load: re-reads the files whose row is missing or whose size or mtime differ
   * (their saved entry is stale or absent) and drops the documents whose file is gone.
   */
  private async refresh(savedIds: string[], started: number, indexMs: number): Promise<void> {
    const walkStarted = performance.now();
    const walk = await this.walk();
    const walkMs = performance.now() - walkStarted;
    // The saved rows are read only now: the walk waited for the watcher's scan, which runs
    // while the server already serves, so their read (10,000 rows and their garbage: ~50-80 ms
    // of the main thread) no longer holds up the start (docs/benchmarks.md, issue 26). Until
    // then a search's excerpt reads its file without the size hint; nothing else reads the
    // rows before this task ends (saves and file changes queue behind it).
    this.rows = await this.store.loadRows();
    const readStarted = performance.now();
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
    const pauses = this.pauses("load");
    for (const file of changed) {
      this.apply(file.path, this.load(file));
      await pauses.afterFile();
    }
    await this.flushInvalidations();
    this.indexedAt = new Date().toISOString();
    const readMs = performance.now() - readStarted;
    this.report({ kind: "load", read: changed.length, unchanged, removed, truncated: walk.truncated, builder: "main-thread" }, started, { walkMs, readMs, indexMs });
  }

  /**
   * Reads every searchable file into a new index and swaps it in. With `publish` (the first
   * build, when there is no index to answer from), the files read so far are made
   * searchable as the build goes. A large workspace is read and indexed in a child process
   * (builder-process.ts); a small one, or one whose process failed, here.
   */
  private async build(kind: "build" | "reindex", options: { publish?: boolean } = {}): Promise<RefreshReport> {
    const started = performance.now();
    // Listed once the watcher has its mark, also while its initial scan runs: anything created
    // or changed after the mark is published, and what vanishes before the scan ends is
    // dropped after it (dropVanished).
    const listedDuringScan = this.deps.watch !== undefined && !this.scanEnded;
    const publish = options.publish === true;
    // A large workspace is built in a child process, started as soon as the walk has found that
    // many files: its modules load while the walk goes on (not with the test seam that holds a
    // build between this thread's slices).
    const manyFiles = this.deps.seams?.betweenSlices ? undefined : { atLeast: this.deps.config.builderProcessMinFiles, call: () => this.startBuilder(publish) };
    let walk: Awaited<ReturnType<SearchIndex["walk"]>>;
    try {
      walk = await this.walk({ waitFor: "mark", onManyFiles: manyFiles });
      this.throwIfStopped();
    } catch (error) {
      const builder = this.builder;
      this.builder = undefined;
      await builder?.stop();
      throw error;
    }
    const walkMs = performance.now() - started;
    this.skipped.clear();
    this.problems.clear();
    const built = (await this.buildInProcess(walk.files)) ?? (await this.buildHere(walk.files, kind, publish));
    if (listedDuringScan) await this.dropVanished(built, walk.files);
    const removed = [...this.rows.keys()].filter((path) => !built.rows.has(path)).length;
    this.index = built.index;
    this.throwIfStopped();
    this.warmSoon();
    this.rows = built.rows;
    this.indexedAt = new Date().toISOString();
    // Saved by the next queued task: the new index serves searches before it is written.
    this.needsFullSave = true;
    this.builtSinceRelease = true;
    this.unflushed.clear();
    this.saveSoon();
    const report = this.report({ kind, read: built.rows.size, unchanged: 0, removed, truncated: walk.truncated, builder: built.builder }, started, { walkMs, readMs: built.readMs, indexMs: built.indexMs });
    this.deps.logger.info({ files: built.rows.size, durationMs: report.durationMs, skipped: this.skipped.size, malformed: this.problems.size, builder: built.builder }, "search index built");
    return report;
  }

  /**
   * The build on this thread, in slices. With `publish`, a snapshot of the builder every
   * `publishEveryMs`, and only once the documents doubled since the last one, so all
   * snapshots together cost at most about one more final sort.
   */
  private async buildHere(files: FoundFile[], kind: "build" | "reindex", publish: boolean): Promise<BuiltIndex> {
    const readStarted = performance.now();
    const builder = CompactIndex.builder();
    const rows = new Map<string, FileRow>();
    let publishedAt = performance.now();
    const pauses = this.pauses(kind, async (slicer) => {
      const count = builder.documentCount;
      if (!publish || performance.now() - publishedAt < this.deps.config.publishEveryMs || count < Math.max(1, 2 * this.index.documentCount)) return this.index.documentCount;
      this.index = await runSliced(builder.snapshotSteps(), slicer);
      publishedAt = performance.now();
      this.warmSoon();
      return count;
    });
    for (const file of files) {
      const result = this.load(file);
      if (result.kind === "indexed") {
        builder.add(result.document);
        rows.set(file.path, result.row);
        this.noteProblem(file.path, result.problem);
      } else if (result.kind === "skipped") this.skipped.set(file.path, result.reason);
      // Let queries (answered from the previous or partial index) and other requests through.
      await pauses.afterFile();
    }
    const finishStarted = performance.now();
    const index = await runSliced(builder.finishSteps(), pauses.slicer);
    return { index, rows, readMs: finishStarted - readStarted, indexMs: performance.now() - finishStarted, builder: "main-thread" };
  }

  /**
   * Starts the builder process (the walk found `search.builderProcessMinFiles` files). Its
   * partial indexes (first build) are decoded here in slices, one at a time; one still
   * queued when the build ends is dropped.
   */
  private startBuilder(publish: boolean): void {
    if (this.stopped) return; // The walk ends with a Stopped error right after.
    let decoding = Promise.resolve();
    let builder: BuilderProcess;
    try {
      builder = startBuilderProcess({
        maxFileBytes: this.deps.config.maxFileBytes,
        publishEveryMs: publish ? this.deps.config.publishEveryMs : null,
        entry: this.deps.seams?.builderEntry,
        tempRoot: this.deps.seams?.builderTempRoot,
        onSnapshot: (encoded) => {
          decoding = decoding
            .then(async () => {
              if (this.builder !== builder) return;
              const partial = await runSliced(decodeSteps(encoded.codec, encoded.text, encoded.blob));
              if (this.builder !== builder) return;
              this.index = partial;
              this.warmSoon();
            })
            .catch((error) => this.deps.logger.warn({ err: error }, "search: a partial index of the build could not be read"));
        },
      });
    } catch (error) {
      // No temporary directory, no process: this build runs here.
      this.deps.logger.warn({ err: error }, "search: the builder process could not be started; building on the main thread");
      return;
    }
    this.builder = builder;
  }

  /**
   * The build in the process started during the walk, if one was; its result is decoded here
   * in slices. Undefined when none was started, or when it failed: the caller builds here.
   */
  private async buildInProcess(files: FoundFile[]): Promise<BuiltIndex | undefined> {
    const builder = this.builder;
    if (!builder) return undefined;
    let result: BuilderOutput;
    let index: CompactIndex;
    let decodeMs: number;
    try {
      result = await builder.run(files);
      const decodeStarted = performance.now();
      index = await runSliced(decodeSteps(result.index.codec, result.index.text, result.index.blob));
      decodeMs = performance.now() - decodeStarted;
    } catch (error) {
      this.throwIfStopped();
      this.deps.logger.warn({ err: error }, "search: the builder process failed; building on the main thread");
      return undefined;
    } finally {
      this.builder = undefined;
    }
    const rows = new Map<string, FileRow>();
    for (const row of result.rows) {
      // A file indexed before keeps its row's id and createdAt, as on this thread (file-loader.ts).
      const previous = this.rows.get(row.path);
      rows.set(row.path, previous ? { ...row, id: previous.id, createdAt: previous.createdAt } : row);
    }
    for (const [path, reason] of result.skipped) this.skipped.set(path, reason);
    for (const [path, problem] of result.problems) this.noteProblem(path, problem);
    return { index, rows, readMs: result.readMs, indexMs: result.indexMs + decodeMs, builder: "child-process" };
  }

  /**
   * A walk listed during the watcher's initial scan: a file deleted after the walk listed it,
   * before the scan reached its directory, was reported by no event. Every deletion after
   * the scan is; so once it has ended, the built files still missing are dropped.
   */
  private async dropVanished(built: BuiltIndex, files: FoundFile[]): Promise<void> {
    if (!(await this.deps.watch!.scanned())) throw new Stopped("the host stopped before the workspace watcher's scan ended");
    const slicer = new Slicer();
    for (const file of files) {
      // The entry itself (a link, not its target: a deleted link whose target remains is gone).
      if (lstatSync(join(this.deps.workspace.root, file.path), { throwIfNoEntry: false }) === undefined) {
        built.rows.delete(file.path);
        built.index.remove(file.path);
        this.skipped.delete(file.path);
        this.problems.delete(file.path);
      }
      await slicer.maybePause();
    }
  }

  /**
   * Pauses between files of a build or refresh: when the time slice is spent (or after
   * {@link MAX_SLICE_FILES} files), `publish` may make the files read so far searchable,
   * the test seam is awaited, and the event loop gets a turn. Stops the work at shutdown.
   */
  private pauses(kind: RefreshReport["kind"], publish: (slicer: Slicer) => Promise<number> = async () => 0) {
    const slicer = new Slicer();
    let read = 0;
    let inSlice = 0;
    return {
      slicer,
      afterFile: async (): Promise<void> => {
        read += 1;
        if (++inSlice < MAX_SLICE_FILES && !slicer.due) return;
        inSlice = 0;
        const published = await publish(slicer);
        await this.deps.seams?.betweenSlices?.({ kind, read, published });
        await slicer.pause();
        this.throwIfStopped();
      },
    };
  }

  /** Builds the prefix and typo lookups in slices, off the load's path, before the first queries need them. */
  private warmSoon(): void {
    const index = this.index;
    // A partial index of the first build is soon replaced: its warm-up stops then.
    setImmediate(() => void runSliced(whileWanted(index.warmSteps(), () => this.index === index)).catch((error) => this.deps.logger.warn({ err: error }, "search: term lookups not prepared"))).unref();
  }

  /**
   * Lists the workspace, by default once the watcher's initial scan has ended (it runs while
   * the server serves). From then on every change is published, so nothing that happens after
   * this listing is missed. A build lists as soon as the watcher has its mark (never before:
   * a file created or changed between a listing and the mark would be reported by nothing);
   * changes after the mark are published, but a walk during the scan could list a directory,
   * then a file there be deleted before the scan reached it, and no event would ever drop it:
   * the build checks its files once the scan has ended (dropVanished). Searches answer
   * meanwhile (from the saved index at a restart).
   */
  private async walk(options: { waitFor: "mark" | "scan"; onManyFiles?: WalkOptions["onManyFiles"] } = { waitFor: "scan" }) {
    // Longer slices only while the scan runs (walk.ts); after it, the usual ones.
    const sliceMs = options.waitFor === "mark" && !this.scanEnded ? WALK_SLICE_MS : SLICE_MS;
    const watch = this.deps.watch;
    if (watch && !(await (options.waitFor === "scan" ? watch.scanned() : watch.watching()))) throw new Stopped("the host stopped before the workspace watcher started or ended its scan");
    this.throwIfStopped();
    const walk = await walkWorkspace({ workspace: this.deps.workspace, maxFiles: this.deps.config.maxFiles, sliceMs, onManyFiles: options.onManyFiles });
    this.symlinksOutside = walk.symlinksOutside;
    if (walk.truncated) this.deps.logger.warn({ maxFiles: this.deps.config.maxFiles }, "workspace has more searchable files than search.maxFiles; the rest is not indexed");
    return walk;
  }

  /** Re-reads one file (watcher event) and updates or drops its entry. */
  private async indexOne(path: string): Promise<void> {
    let absolutePath: string;
    try {
      // Read through the real path, checked again: the file is opened without following a
      // link, so one planted after this check is refused, not read (read-file.ts).
      absolutePath = realpathSync(this.deps.workspace.resolve(path));
      if (!this.deps.workspace.contains(absolutePath)) throw new Error("outside");
    } catch {
      this.drop(path); // Gone, or outside the workspace (through a link leaving it): never indexed.
      return;
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

  private persists(): boolean {
    return this.deps.persists?.() ?? true;
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
  private async flushInvalidations(): Promise<void> {
    // Another instance writes the saved index (team mode). What changed stays marked: should
    // this one write again (it became the primary, or was not it for a moment), it is written.
    if (!this.persists()) return;
    if (this.unflushed.size > 0) {
      try {
        await this.store.invalidate(this.unflushed);
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
    this.enqueue(() => this.persist()).catch(() => undefined);
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

  /**
   * Writes the whole index and every row when anything differs from the saved state, in
   * slices (compacting the postings, then the blob and the rows in parts); runs as one task
   * of the queue, so nothing changes the index meanwhile.
   */
  private async persist(): Promise<void> {
    if (!this.persists()) {
      // Not the writer (team mode): nothing is saved; if it becomes the writer,
      // takeOverSaving() saves its whole index then.
      if (this.builtSinceRelease) this.releaseMemorySoon();
      return;
    }
    if (this.stale.size === 0 && !this.needsFullSave) return;
    try {
      const started = performance.now();
      const slicer = new Slicer();
      await runSliced(this.index.compactSteps(), slicer);
      const { codec, text, data } = encodeIndexParts(this.index);
      await this.store.saveAll({ format: `${INDEX_FORMAT}/${codec}`, json: text, data, rows: this.rows.values() }, () => slicer.pause());
      this.lastSave = { durationMs: Math.round(performance.now() - started), bytes: Buffer.byteLength(text) + data.reduce((sum, b) => sum + b.length, 0), savedAt: new Date().toISOString() };
      this.stale.clear();
      this.unflushed.clear();
      this.needsFullSave = false;
      this.deps.onChange?.();
    } catch (error) {
      // The in-memory index stays correct; the next start re-reads what the rows do not vouch for.
      this.deps.logger.error({ err: error }, "search index could not be saved");
    }
    if (this.builtSinceRelease) this.releaseMemorySoon();
  }

  /**
   * Once a full build is saved (or the start-up load and refresh ended), has V8 give back
   * what it kept from them (about 90-140 MB for 10,000 files; see release-memory.ts). A little later, so the clients the build
   * answered are served first; skipped while another build runs (it will release after it).
   */
  private releaseMemorySoon(): void {
    clearTimeout(this.releaseTimer);
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = undefined;
      if (this.stopped || this.indexing > 0) return;
      this.builtSinceRelease = false;
      const grewBy = this.buildGrowth;
      this.buildGrowth = 0;
      // A small workspace's build leaves nothing to give back, and the release has a lasting cost (release-memory.ts).
      if (!buildKeptMemory(grewBy)) return;
      const durationMs = releaseMemory();
      this.deps.logger.info({ durationMs: durationMs === undefined ? null : Math.round(durationMs), rssMb: Math.round(process.memoryUsage.rss() / 1_048_576) }, "search: memory kept from the index build released");
    }, RELEASE_MEMORY_DELAY_MS);
    this.releaseTimer.unref();
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

/** A build stopped by shutdown answers POST /api/search with 503. */
function unavailableWhenStopped(error: unknown): never {
  throw error instanceof Stopped ? searchErrors.SEARCH_INDEX_UNAVAILABLE({ reason: "the server is shutting down" }) : error;
}

/** Scores as the API shows them (3 decimals). */
const roundScore = (score: number) => Math.round(score * 1000) / 1000;
