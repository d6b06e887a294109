// The workspace watcher: follows the spec's locations with chokidar, coalesces each file's
// burst of raw events into one change, and publishes `workspace.file.changed` on the bus.
// A second chokidar watcher follows the markdown and YAML files of the rest of the workspace
// for the indexes (full-text and semantic search read the whole workspace, so a file added,
// edited or removed in `notes/` must reach them too) and publishes `workspace.document.changed`.
//
// The initial scan runs while the server already serves (a 10,000-file workspace takes most of
// a second to list and stat). A file written after the start but before the scan reaches its
// directory is listed by the scan as existing; the scan's stats say it changed since the
// scan's mark (see scan-catch-up.ts), and such a file is published like any change. A file of
// the watched locations deleted before the scan reaches its directory is found by comparing
// the scan with a listing of names taken before listening (no stat: a few ms).
//
// Bugs of the earlier implementation not repeated here: it started only when the first SSE
// client connected (changes before that were lost), its glob path was silently dead under
// chokidar 4+, deletions logged no activity, and `awaitWriteFinish` with a 500 ms stability
// threshold put half a second between a write and its event.
import type { Stats } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { dirname, basename } from "node:path";
import { watch, type FSWatcher } from "chokidar";
import type { Logger } from "pino";
import type { EventBus } from "../../plugin-api/events.ts";
import { WORKSPACE_DOCUMENT_CHANGED, WORKSPACE_FILE_CHANGED, type WorkspaceFileChange } from "../../plugin-api/workspace.ts";
import { isInside } from "./paths.ts";
import { changedSince, filesystemNow, listWatchedFiles } from "./scan-catch-up.ts";
import { isOtherDocument, isOtherRelative, isWatchedFile, isWatchedRelative, toRelative } from "./watched-paths.ts";

export interface WorkspaceWatcherOptions {
  /** Real path of the workspace root. */
  root: string;
  events: EventBus;
  logger: Logger;
  /** Quiet time after a file's last raw event before its change is published. */
  debounceMs: number;
  /** A file written continuously is still published at least this often. */
  maxWaitMs: number;
}

export interface WorkspaceWatcher {
  /** `scanning` until both initial scans have reached every directory, `ready` after. */
  readonly state: "scanning" | "ready";
  /**
   * True once both initial scans are done: from then on every change is published, so a walk
   * of the workspace started after it misses none. False when the watcher closed first.
   */
  readonly scanned: Promise<boolean>;
  /** Stops watching (also during the scan); pending (not yet published) changes are dropped. Idempotent. */
  close(): Promise<void>;
}

type RawKind = "add" | "change" | "unlink";

interface Pending {
  /** The first raw event of the burst tells whether the file existed before it. */
  first: RawKind;
  last: RawKind;
  since: number;
  timer: NodeJS.Timeout;
}

/** The coalesced change of a burst, or null when the file was created and removed within it. */
export function coalesce(first: RawKind, last: RawKind): WorkspaceFileChange["type"] | null {
  const existedBefore = first !== "add";
  const existsNow = last !== "unlink";
  if (existedBefore && existsNow) return "updated";
  if (existsNow) return "created";
  return existedBefore ? "deleted" : null;
}

/** The bus event a workspace-relative file's changes go to, or null when none reports it. */
function eventOf(rel: string): typeof WORKSPACE_FILE_CHANGED | typeof WORKSPACE_DOCUMENT_CHANGED | null {
  if (isWatchedFile(rel)) return WORKSPACE_FILE_CHANGED;
  return isOtherDocument(rel) ? WORKSPACE_DOCUMENT_CHANGED : null;
}

/**
 * Starts watching at once and returns without waiting for the initial scans (the server
 * listens meanwhile; `scanned` settles when they end). The watched locations are scanned
 * first, then the rest of the workspace. A file either scan finds whose mtime or ctime is at or
 * after the mark taken here, before anything is listed, changed after the start: it is
 * published (`created` when it was born after the mark, else `updated`). A file of the watched
 * locations listed here before the scan but missing from it was deleted (or moved away)
 * meanwhile: it is published `deleted`. Elsewhere (documents, not streamed nor logged) the
 * indexes walk after `scanned` instead.
 */
export function startWorkspaceWatcher(options: WorkspaceWatcherOptions): WorkspaceWatcher {
  const { root, events, logger, debounceMs, maxWaitMs } = options;
  const pending = new Map<string, Pending>();
  let closed = false;
  const mark = filesystemNow(root);
  const listedBefore = new Set(listWatchedFiles(root));
  /** Files an event of the watched locations' scan named: their fate is known, not guessed from the listing. */
  const reported = new Set<string>();

  /** One chokidar watcher of the root; `follows` prunes directories, `reports` keeps files. */
  function follow(follows: (rel: string) => boolean, reports: (rel: string) => boolean, listed?: Set<string>): FSWatcher {
    let scanning = true;
    const watcher = watch(root, {
      // Initial adds are emitted (with their stats) only to find the files changed since the mark.
      ignoreInitial: false,
      persistent: true,
      // Not following symlinks means no loops and nothing outside the workspace is watched.
      followSymlinks: false,
      ignorePermissionErrors: true,
      // Our own per-file debounce coalesces unlink+add of atomic saves without chokidar's 100 ms hold.
      atomic: false,
      awaitWriteFinish: false,
      ignored: (path, stats) => {
        const rel = toRelative(root, path);
        if (rel === null) return false; // the root's ancestors: chokidar's own bookkeeping
        if (!follows(rel)) return true;
        return stats?.isFile() === true && !reports(rel);
      },
    });
    watcher.on("error", (error) => logger.warn({ err: error }, "workspace watcher error"));
    watcher.on("all", (event, path, stats) => {
      if (event === "add" && scanning) void found(path, stats, listed);
      else if (event === "add" || event === "change" || event === "unlink") {
        if (scanning && listed) reported.add(path);
        note(path, event);
      }
    });
    watcher.once("ready", () => (scanning = false));
    return watcher;
  }

  /** Files listed before listening that the scan of the watched locations did not find (nor report): deleted meanwhile. */
  function reportVanished(watcher: FSWatcher) {
    const seen = watcher.getWatched();
    for (const path of listedBefore) {
      if (!reported.has(path) && !seen[dirname(path)]?.includes(basename(path))) note(path, "unlink");
    }
    listedBefore.clear();
    reported.clear();
  }

  /**
   * A file the initial scan listed (or one created in a directory it already watches). One
   * changed since the mark is `created` if it was not there before the scan (the listing of
   * the watched locations says; elsewhere its birth time), else `updated`.
   */
  async function found(path: string, stats: Stats | undefined, listed: Set<string> | undefined) {
    const info = stats ?? (await lstat(path).catch(() => undefined));
    if (!info || !changedSince(info, mark)) return; // unchanged, or gone again (never reported)
    const existed = listed ? listed.has(path) : info.birthtimeMs < mark;
    note(path, existed ? "change" : "add");
  }

  function note(absolutePath: string, kind: RawKind) {
    if (closed) return;
    const rel = toRelative(root, absolutePath);
    if (rel === null || eventOf(rel) === null) return;
    const now = Date.now();
    const entry = pending.get(absolutePath);
    if (entry) {
      clearTimeout(entry.timer);
      entry.last = kind;
      entry.timer = setTimeout(flush, now - entry.since >= maxWaitMs ? 0 : debounceMs, absolutePath, rel);
      return;
    }
    pending.set(absolutePath, { first: kind, last: kind, since: now, timer: setTimeout(flush, debounceMs, absolutePath, rel) });
  }

  async function flush(absolutePath: string, rel: string) {
    const entry = pending.get(absolutePath);
    if (!entry || closed) return;
    pending.delete(absolutePath);
    const type = coalesce(entry.first, entry.last);
    if (type === null) return;
    if (type !== "deleted" && !(await staysInside(absolutePath))) return;
    const event = eventOf(rel);
    if (closed || event === null) return;
    const change: WorkspaceFileChange = { type, path: rel, absolutePath, timestamp: Date.now() };
    events.publish(event, change, { public: false });
  }

  /** A symlink whose target leaves the workspace is not reported (readers would follow it out). */
  async function staysInside(absolutePath: string): Promise<boolean> {
    try {
      const stats = await lstat(absolutePath);
      if (!stats.isSymbolicLink()) return stats.isFile();
      return isInside(root, await realpath(absolutePath));
    } catch {
      return false; // vanished (its unlink follows), dangling or unreadable link
    }
  }

  const started = Date.now();
  let state: WorkspaceWatcher["state"] = "scanning";
  let endScan: (done: boolean) => void = () => undefined;
  const scanned = new Promise<boolean>((resolve) => (endScan = resolve));
  const readyOf = (watcher: FSWatcher) => new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  const watched = follow(isWatchedRelative, isWatchedFile, listedBefore);
  let others: FSWatcher | undefined;
  // The rest of the workspace after the watched locations: the two do not compete, and the
  // locations whose changes are streamed and logged are caught up first.
  void readyOf(watched).then(async () => {
    if (closed) return;
    reportVanished(watched);
    logger.debug({ root, ms: Date.now() - started }, "workspace watcher: watched locations scanned");
    others = follow(isOtherRelative, isOtherDocument);
    await readyOf(others);
    if (closed) return;
    state = "ready";
    logger.info({ ms: Date.now() - started }, "workspace watcher ready (initial scan done)");
    endScan(true);
  });

  return {
    get state() {
      return state;
    },
    scanned,
    async close() {
      if (closed) return;
      closed = true;
      endScan(false);
      for (const entry of pending.values()) clearTimeout(entry.timer);
      pending.clear();
      await Promise.all([watched.close(), others?.close()]);
    },
  };
}
