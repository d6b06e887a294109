import { realpathSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { terminalErrors } from "../errors.ts";
import { enclosingMusterPlace } from "./muster-places.ts";

/** Whether `path` is `root` or lies under it, by path segments (never a string prefix: `/tmpfoo` is not in `/tmp`). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The real path of `path`, also when it does not exist (yet): the longest existing prefix is
 * resolved with realpath and the rest appended, so `link/missing` through a symlink to /proc is
 * under /proc.
 */
export function realPathLoose(path: string): string {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      // The kernel's realpath: `link/..` is the target's parent. (fs.realpathSync would first
      // normalise `..` away as text, and `ws-link/../session-token` would look harmless.)
      return join(realpathSync.native(at), ...rest.reverse());
    } catch {
      if (dirname(at) === at) return path;
      rest.push(basename(at));
    }
  }
}

/** Muster's data directory (`MUSTER_HOME`) and the workspace, which may lie inside it; real paths. */
export interface MusterData {
  home: string;
  workspace: string;
}

/** The roots commands may run in: `$HOME` and the temporary directory, as real paths. */
export function allowedRoots(): string[] {
  return [homedir(), tmpdir()].flatMap((root) => {
    try {
      return [realpathSync(root)];
    } catch {
      return [];
    }
  });
}

/**
 * Where a command runs without a `cwd`: the workspace, where agents work, when it lies inside
 * the allowed roots; else `$HOME`. Relative `cwd` values are resolved against it.
 */
function defaultDirectory(data: MusterData): string {
  return allowedRoots().some((root) => isInside(root, data.workspace)) ? data.workspace : homedir();
}

/**
 * The real path of the requested working directory (default: the workspace, else `$HOME`),
 * every symlink and `..` resolved first, so a link inside the temp directory that points at
 * /etc is /etc. 400 `TERMINAL_CWD_NOT_FOUND` when it is not an existing directory, 403
 * `TERMINAL_CWD_FORBIDDEN` when it lies outside the allowed roots, or inside a Muster
 * installation (its code runs unsandboxed at the next start) or a data directory (database,
 * session token, configuration) of this or another instance; the workspace is the exception.
 */
export function resolveWorkingDirectory(requested: string | undefined, data: MusterData): string {
  const base = defaultDirectory(data);
  const asked = requested ?? base;
  let real: string;
  try {
    real = realpathSync(resolve(base, asked));
    if (!statSync(real).isDirectory()) throw new Error("not a directory");
  } catch {
    throw terminalErrors.TERMINAL_CWD_NOT_FOUND({ cwd: asked });
  }
  if (!allowedRoots().some((root) => isInside(root, real))) {
    throw terminalErrors.TERMINAL_CWD_FORBIDDEN({ cwd: asked, reason: "it resolves outside the home directory and the temporary directory" });
  }
  if (isInside(data.workspace, real)) return real;
  const place = isInside(data.home, real) ? { dir: data.home, kind: "data directory" } : enclosingMusterPlace(real);
  if (place) throw terminalErrors.TERMINAL_CWD_FORBIDDEN({ cwd: asked, reason: `it is inside a Muster ${place.kind} (${place.dir}); use the workspace or a project directory` });
  return real;
}
