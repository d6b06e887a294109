/** Which workspace files are searchable, and which directories the walk never enters. */
import { WORKSPACE_SKIPPED_DIRECTORIES } from "@muster/plugin";
import { isSearchableName } from "./file-types.ts";

/** Whether the walk skips a directory of this name (hidden ones included). */
export function isSkippedDirectory(name: string): boolean {
  return name.startsWith(".") || WORKSPACE_SKIPPED_DIRECTORIES.has(name);
}

/**
 * Whether a workspace-relative path (from a watcher event) may be indexed: searchable
 * extension, not a hidden file, and no hidden or skipped directory on the way.
 */
export function isIndexablePath(path: string): boolean {
  const segments = path.split("/");
  const name = segments.pop() ?? "";
  if (!name || name.startsWith(".") || !isSearchableName(name)) return false;
  return segments.every((s) => s !== "" && s !== "." && s !== ".." && !isSkippedDirectory(s));
}
