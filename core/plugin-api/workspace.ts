/** The agent workspace (`WORKSPACE_DIR`), with path handling that cannot escape it. */
export interface WorkspacePaths {
  /** Absolute, real path of the workspace root. */
  readonly root: string;
  /**
   * Resolves a workspace-relative path to an absolute one. Refuses (400
   * `PATH_OUTSIDE_WORKSPACE`) absolute paths, `..` escapes, NUL bytes and symlinks whose
   * real target lies outside the workspace.
   */
  resolve(relativePath: string): string;
  /** The workspace-relative path (with `/` separators) of an absolute path inside it. */
  relative(absolutePath: string): string;
  /**
   * Whether an absolute path is the root or lies under it, compared by path segments
   * (never a string prefix). Pass a real path (`fs.realpath`) to check where a symlink leads.
   */
  contains(absolutePath: string): boolean;
}

/**
 * The host's workspace watcher as plugins see it (`hostTokens.workspaceWatch`). It starts
 * after every plugin's onStart, taking its mark; its initial scan runs after the server starts
 * serving. A change made after the mark is published (during the scan, from the scan's
 * stats), but a file deleted before the scan reached its directory is not (it was never
 * reported). A plugin that walks the workspace to reconcile what it keeps (an index) walks
 * after `scanned()`: every change after that walk's listing is then published. Or it walks
 * after `watching()` and, once `scanned()`, checks that what it listed still exists.
 */
export interface WorkspaceWatch {
  /** `scanning` until the initial scan has reached every directory, `ready` after (as `GET /api/health` reports it). */
  readonly state: "scanning" | "ready";
  /** Resolves true once the watcher has taken its mark (from then on every change but a deletion during the scan is published), false when the host stopped first. */
  watching(): Promise<boolean>;
  /** Resolves true when the initial scan ended, false when the host stopped first (or never started the watcher). */
  scanned(): Promise<boolean>;
}

/**
 * Bus event the host's workspace watcher publishes (not public) for every coalesced change
 * in a watched location. Subscribe with `ctx.events.subscribe(WORKSPACE_FILE_CHANGED, ...)`.
 */
export const WORKSPACE_FILE_CHANGED = "workspace.file.changed";

/**
 * Bus event (not public, same payload) the host's workspace watcher publishes for every
 * coalesced change of a markdown or YAML file (`.md`, `.yaml`, `.yml`) anywhere else in the
 * workspace: outside the watched locations, not hidden, not in a skipped directory
 * ({@link WORKSPACE_SKIPPED_DIRECTORIES}). It logs no activity and is not streamed; an index
 * of the whole workspace subscribes to both events (each change comes in exactly one).
 */
export const WORKSPACE_DOCUMENT_CHANGED = "workspace.document.changed";

/**
 * Dependency, build and tool directories (at any depth) that the workspace indexes never
 * enter and the watcher does not follow outside the watched locations: large, generated,
 * never agent knowledge. Hidden directories (`.git`, …) are skipped as well.
 */
export const WORKSPACE_SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(["node_modules", "bower_components", "jspm_packages", "vendor", "venv", "__pycache__", "site-packages"]);

/** Payload of {@link WORKSPACE_FILE_CHANGED}. */
export interface WorkspaceFileChange {
  type: "created" | "updated" | "deleted";
  /** Workspace-relative path with `/` separators (`memory/2026-11-21.md`). */
  path: string;
  /** Absolute path of the file (for `deleted`, where it was). */
  absolutePath: string;
  /** Epoch milliseconds when the change was detected. */
  timestamp: number;
}
