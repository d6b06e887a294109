// The workspace watcher: follows the spec's locations with chokidar, coalesces each file's
// burst of raw events into one change, and publishes `workspace.file.changed` on the bus.
// A second chokidar watcher follows the markdown and YAML files of the rest of the workspace
// for the indexes (full-text and semantic search read the whole workspace, so a file added,
// edited or removed in `notes/` must reach them too) and publishes `workspace.document.changed`.
//
// Bugs of the earlier implementation not repeated here: it started only when the first SSE
// client connected (changes before that were lost), its glob path was silently dead under
// chokidar 4+, deletions logged no activity, and `awaitWriteFinish` with a 500 ms stability
// threshold put half a second between a write and its event.
import { lstat, realpath } from "node:fs/promises";
import { watch, type FSWatcher } from "chokidar";
import type { Logger } from "pino";
import type { EventBus } from "../../plugin-api/events.ts";
import { WORKSPACE_DOCUMENT_CHANGED, WORKSPACE_FILE_CHANGED, type WorkspaceFileChange } from "../../plugin-api/workspace.ts";
import { isInside } from "./paths.ts";
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
  /** Stops watching; pending (not yet published) changes are dropped. Idempotent. */
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
 * Starts watching and resolves once the initial scan of the watched locations is done, so no
 * later change there is missed. The rest of the workspace is scanned after that without
 * holding up the start (it can be most of a large workspace); a document written there before
 * its scan reaches a directory is read by the indexes' own start-up walk or the next one.
 */
export async function startWorkspaceWatcher(options: WorkspaceWatcherOptions): Promise<WorkspaceWatcher> {
  const { root, events, logger, debounceMs, maxWaitMs } = options;
  const pending = new Map<string, Pending>();
  let closed = false;

  /** One chokidar watcher of the root; `follows` prunes directories, `reports` keeps files. */
  function follow(follows: (rel: string) => boolean, reports: (rel: string) => boolean): FSWatcher {
    const watcher = watch(root, {
      ignoreInitial: true,
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
    watcher.on("all", (event, path) => {
      if (event === "add" || event === "change" || event === "unlink") note(path, event);
    });
    return watcher;
  }

  const watched = follow(isWatchedRelative, isWatchedFile);

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

  await new Promise<void>((resolveReady) => watched.once("ready", () => resolveReady()));
  logger.debug({ root }, "workspace watcher ready");
  // Started after the first scan so that the two do not compete for the start's time.
  const othersStarted = Date.now();
  const others = follow(isOtherRelative, isOtherDocument);
  others.once("ready", () => logger.debug({ root, ms: Date.now() - othersStarted }, "workspace document watcher ready"));

  return {
    async close() {
      if (closed) return;
      closed = true;
      for (const entry of pending.values()) clearTimeout(entry.timer);
      pending.clear();
      await Promise.all([watched.close(), others.close()]);
    },
  };
}
