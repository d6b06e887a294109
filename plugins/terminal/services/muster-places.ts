// Places on the host that no terminal command may see or write, whichever the mode: a Muster
// installation (its code runs outside any sandbox at the next start) and a data directory
// (session token, database, configuration) of this or any other instance. Both are found by
// the files they hold, so a second instance, a stopped one or another checkout is recognised
// too, not only this server's own paths.
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { isInside } from "./working-directory.ts";

/** The running code's root (plugins/terminal/services → the repository), as a real path. */
export const RUNNING_INSTALLATION = realpathSync(join(import.meta.dirname, "..", "..", ".."));

/** A data directory: the host holds `muster.lock` in it while it runs (core/internal/instance-lock.ts). */
function isDataDirectory(dir: string): boolean {
  return existsSync(join(dir, "muster.lock"));
}

/** A Muster checkout or package: a package.json named "muster" beside the host's code. */
function isInstallation(dir: string): boolean {
  if (dir === RUNNING_INSTALLATION) return true;
  if (!existsSync(join(dir, "core", "host.ts")) && !existsSync(join(dir, "core", "host.js"))) return false;
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown }).name === "muster";
  } catch {
    return false;
  }
}

/** What `dir` itself is, if it is a Muster place. */
export function musterPlaceKind(dir: string): "installation" | "data directory" | null {
  if (isInstallation(dir)) return "installation";
  if (isDataDirectory(dir)) return "data directory";
  return null;
}

/** The nearest directory at or above the real path `path` that is a Muster place, or null. */
export function enclosingMusterPlace(path: string): { dir: string; kind: string } | null {
  for (let dir = path; ; dir = dirname(dir)) {
    const kind = musterPlaceKind(dir);
    if (kind) return { dir, kind };
    if (dirname(dir) === dir) return null;
  }
}

/** How deep below a directory places are looked for, and how many directories at most are read. */
const SCAN_DEPTH = 3;
const SCAN_BUDGET = 4000;
/** Never Muster places, and often huge: not descended into. */
const SKIPPED = new Set(["node_modules", ".cache", ".npm", ".git", "proc", "sys"]);

/**
 * The Muster places inside the real directory `root` (root itself excluded): the known ones
 * (`always`: the running installation, this instance's data directory) at any depth, others
 * found by reading at most {@link SCAN_DEPTH} levels ({@link SCAN_BUDGET} directories, symlinks
 * never followed). A place found is not descended into.
 */
export function musterPlacesBelow(root: string, always: string[]): string[] {
  const found = new Set(always.filter((place) => place !== root && isInside(root, place)));
  let budget = SCAN_BUDGET;
  const visit = (dir: string, depth: number) => {
    if (depth > SCAN_DEPTH || budget-- <= 0) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || SKIPPED.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (found.has(path)) continue;
      if (musterPlaceKind(path)) found.add(path);
      else visit(path, depth + 1);
    }
  };
  visit(root, 1);
  // Nested places (a data directory inside a checkout) are covered by the outer one.
  return [...found].filter((place) => ![...found].some((outer) => outer !== place && isInside(outer, place)));
}
