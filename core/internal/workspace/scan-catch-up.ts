// What the watcher's initial scan, which runs after the server listens, compares with to miss
// no change made meanwhile: the filesystem's clock at its start (a file stamped at or after it
// changed during the scan) and the names of the watched locations' files at its start (one of
// them the scan does not find was deleted or moved away during the scan).
import { closeSync, fstatSync, openSync, readdirSync, unlinkSync, type Stats } from "node:fs";
import { join, normalize, sep } from "node:path";
import { isWatchedFile, isWatchedRelative } from "./watched-paths.ts";

/**
 * The filesystem's clock now, as it stamps a file in `dir`: the mark a file's mtime and ctime
 * are compared with. A file's times come from the kernel's coarse clock at the filesystem's
 * granularity (a few ms on Linux, 1-2 s on some filesystems), so `Date.now()` can be ahead of
 * the stamp of a write made after it; a file created here gets the same clock and
 * granularity, and a time at or after it is a change after it. The file is hidden and a
 * scratch name (`.tmp`), which no watcher or index reads, and is removed at once. Where it
 * cannot be written (a read-only workspace) the mark is 2 s early, the coarsest granularity.
 */
export function filesystemNow(dir: string): number {
  const path = join(dir, `.muster-scan-mark-${process.pid}.tmp`);
  try {
    const fd = openSync(path, "w");
    try {
      return fstatSync(fd).mtimeMs;
    } finally {
      closeSync(fd);
      unlinkSync(path);
    }
  } catch {
    return Date.now() - 2_000;
  }
}

/** Whether a file the initial scan found was written (or moved in, or re-timed) at or after `mark`. */
export function changedSince(stats: Stats, mark: number): boolean {
  return stats.mtimeMs >= mark || stats.ctimeMs >= mark;
}

/**
 * Absolute paths of the files (and symlinks) in the watched locations, from directory
 * listings alone (no stat per file: about 5 ms for 6,000 files), following the same rules as
 * the watcher (pruned directories, scratch names, symlinked directories not entered).
 */
export function listWatchedFiles(root: string): string[] {
  const files: string[] = [];
  // A directory's path and an entry's name (never a separator nor `.`/`..` in it) joined
  // as text: `path.join` normalises the whole path again for each of thousands of files, a
  // tenth of a restart's watcher phase in a profile (issue 26).
  const visit = (dir: string, rel: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // vanished or unreadable: the watcher skips it too
    }
    const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (isWatchedRelative(childRel)) visit(prefix + entry.name, childRel);
      } else if (isWatchedFile(childRel)) files.push(prefix + entry.name);
    }
  };
  visit(normalize(root), "");
  return files;
}
