// The workspace root and path handling that cannot escape it (a path check on real
// paths, never a string prefix test).
import { existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { WorkspacePaths } from "../../plugin-api/workspace.ts";
import { hostErrors } from "../../plugin-api/errors.ts";

/** DESIGN §10: `WORKSPACE_DIR`, else `~/.openclaw/workspace` if it exists, else `$MUSTER_HOME/workspace`. */
export function resolveWorkspaceRoot(explicit: string | null, home: string): string {
  if (explicit) return resolve(explicit);
  const openclaw = join(homedir(), ".openclaw", "workspace");
  if (existsSync(openclaw)) return openclaw;
  return join(home, "workspace");
}

const outside = (path: string) =>
  hostErrors.PATH_OUTSIDE_WORKSPACE({}, { details: [{ path: "path", reason: `${JSON.stringify(path.slice(0, 200))} leaves the workspace` }] });

/** Whether `candidate` is `root` or under it, by path segments; what `WorkspacePaths.contains` answers. */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * The real path `path` would have once created: the nearest existing ancestor's real
 * path plus the rest. A dangling symlink on the way is followed to where its target
 * would be created, so a link pointing outside cannot smuggle a write out.
 */
function realpathOfExistingPrefix(path: string, hops = 0): string {
  let current = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(current), ...rest.reverse());
    } catch {
      let link: string | null = null;
      try {
        if (lstatSync(current).isSymbolicLink()) link = readlinkSync(current);
      } catch {
        // Does not exist at all: keep walking up.
      }
      if (link !== null) {
        if (hops >= 40) return path; // a symlink loop; its lexical path is checked by the caller
        const target = resolve(dirname(current), link);
        return realpathOfExistingPrefix(join(target, ...rest.reverse()), hops + 1);
      }
      const parent = resolve(current, "..");
      if (parent === current) return path;
      rest.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      current = parent;
    }
  }
}

export function createWorkspacePaths(rootDir: string): WorkspacePaths {
  mkdirSync(rootDir, { recursive: true });
  const root = realpathSync(rootDir);
  return {
    root,
    resolve(relativePath) {
      if (typeof relativePath !== "string" || relativePath.includes("\0") || isAbsolute(relativePath) || /^[A-Za-z]:/.test(relativePath)) {
        throw outside(String(relativePath));
      }
      const lexical = resolve(root, relativePath);
      if (!isInside(root, lexical)) throw outside(relativePath);
      if (!isInside(root, realpathOfExistingPrefix(lexical))) throw outside(relativePath);
      return lexical;
    },
    relative(absolutePath) {
      return relative(root, absolutePath).split(sep).join("/");
    },
    contains(absolutePath) {
      return isInside(root, absolutePath);
    },
  };
}
