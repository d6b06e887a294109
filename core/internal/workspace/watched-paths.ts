// Which workspace paths the watcher follows (the spec's locations) and which file names are
// editors' scratch files. Kept apart from the watcher so the rules are testable on their own.
import { relative, sep } from "node:path";
import { WORKSPACE_SKIPPED_DIRECTORIES } from "../../plugin-api/workspace.ts";
import { isInside } from "./paths.ts";

/**
 * The watched locations, relative to the workspace: the organisation file, every project's
 * task board directory, the daily memory directory and the knowledge base.
 */
export const WATCHED_LOCATIONS = ["company/org_structure.yaml", "projects/*/board/", "memory/", "company/knowledge_base/"] as const;

/** Vim swap files and its write test (`4913`), backups (`~`), Emacs locks (`.#`), `*.tmp`, dotfiles. */
export function isScratchName(name: string): boolean {
  return (
    name.startsWith(".") ||
    name.endsWith("~") ||
    name === "4913" ||
    /\.(sw[a-p]|swx|tmp|temp|crdownload|part)$/i.test(name) ||
    /^#.*#$/.test(name)
  );
}

/**
 * Whether a workspace-relative path (`/` separators) is inside a watched location, or is a
 * directory on the way to one (`company`, `projects`, `projects/<p>`), so the watcher can
 * prune everything else without descending into it.
 */
export function isWatchedRelative(rel: string): boolean {
  if (rel === "") return true;
  const parts = rel.split("/");
  if (parts.some((part) => part === "" || part === ".." || isScratchName(part))) return false;
  switch (parts[0]) {
    case "memory":
      return true;
    case "company":
      return parts.length === 1 || (parts.length === 2 && parts[1] === "org_structure.yaml") || parts[1] === "knowledge_base";
    case "projects":
      return parts.length <= 2 || parts[2] === "board";
    default:
      return false;
  }
}

/** Whether a workspace-relative path names a file inside a watched location. */
export function isWatchedFile(rel: string): boolean {
  if (!isWatchedRelative(rel)) return false;
  const parts = rel.split("/");
  switch (parts[0]) {
    case "memory":
      return parts.length >= 2;
    case "company":
      return parts.length === 2 ? parts[1] === "org_structure.yaml" : parts.length >= 3;
    case "projects":
      return parts.length >= 4;
    default:
      return false;
  }
}

/** Whether a workspace-relative path is a watched location or lies inside one (`memory/x`, not `company`). */
export function isInWatchedLocation(rel: string): boolean {
  const parts = rel.split("/");
  switch (parts[0]) {
    case "memory":
      return true;
    case "company":
      return rel === "company/org_structure.yaml" || parts[1] === "knowledge_base";
    case "projects":
      return parts[2] === "board";
    default:
      return false;
  }
}

/** The files the workspace indexes read (search: all three; semantic search: `.md`). */
const DOCUMENT = /\.(md|ya?ml)$/i;

/**
 * Whether the document watcher follows a workspace-relative path: everything outside the
 * watched locations (those are the first watcher's) except scratch names, hidden and skipped
 * directories (`WORKSPACE_SKIPPED_DIRECTORIES`), which no index reads.
 */
export function isOtherRelative(rel: string): boolean {
  if (rel === "") return true;
  const parts = rel.split("/");
  if (parts.some((part) => part === "" || part === ".." || isScratchName(part) || WORKSPACE_SKIPPED_DIRECTORIES.has(part))) return false;
  return !isInWatchedLocation(rel);
}

/** Whether a workspace-relative path names a markdown or YAML file the document watcher reports. */
export function isOtherDocument(rel: string): boolean {
  return rel !== "" && DOCUMENT.test(rel) && isOtherRelative(rel);
}

/** A `.` or `..` segment, a doubled separator or a trailing one: `path.relative` must normalise it. */
const NOT_NORMAL = /(?:^|[\\/])\.\.?(?:[\\/]|$)|[\\/]{2}|[\\/]$/;

/** Workspace-relative path with `/` separators, or null when `absolutePath` is outside `root`. */
export function toRelative(root: string, absolutePath: string): string | null {
  // The watcher asks this of every path of its initial scan (tens of thousands of calls on
  // a 10,000-file workspace, before the server listens), and `path.relative` resolves both
  // paths each time (about 10 µs a call). A normal path under the root is a prefix cut.
  if (absolutePath.startsWith(root) && absolutePath[root.length] === sep && !NOT_NORMAL.test(absolutePath)) {
    const rest = absolutePath.slice(root.length + 1);
    return sep === "/" ? rest : rest.split(sep).join("/");
  }
  if (!isInside(root, absolutePath)) return null;
  return relative(root, absolutePath).split(sep).join("/");
}
