import { opendir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { isSearchableName, isSkippedDirectory } from "./path-rules.ts";

/** A searchable file found in the workspace. */
export interface FoundFile {
  /** Workspace-relative, `/`-separated. */
  path: string;
  absolutePath: string;
  size: number;
  mtimeMs: number;
}

export interface WalkResult {
  files: FoundFile[];
  /** Symlinks whose target lies outside the workspace (not followed). */
  symlinksOutside: number;
  /** True when `maxFiles` stopped the walk. */
  truncated: boolean;
}

export interface WalkOptions {
  /** The workspace root (a real path). */
  root: string;
  maxFiles: number;
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

const MAX_DEPTH = 64;

/**
 * Lists searchable files under the workspace root, skipping hidden and vendor
 * directories. Symbolic links are followed only when their real target is inside the
 * workspace; directories are visited once by real path, so link cycles end.
 */
export async function walkWorkspace(options: WalkOptions): Promise<WalkResult> {
  const result: WalkResult = { files: [], symlinksOutside: 0, truncated: false };
  const visited = new Set<string>();

  const visit = async (absolute: string, relative: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || result.truncated) return;
    let real: string;
    try {
      real = await realpath(absolute);
    } catch {
      return;
    }
    if (visited.has(real)) return;
    visited.add(real);
    let dir;
    try {
      dir = await opendir(absolute);
    } catch {
      return; // Vanished or unreadable: nothing to index there.
    }
    const subdirectories: [string, string][] = [];
    const files: [string, string][] = [];
    for await (const entry of dir) {
      const abs = join(absolute, entry.name);
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!isSkippedDirectory(entry.name)) subdirectories.push([abs, rel]);
      } else if (entry.isFile()) {
        if (!entry.name.startsWith(".") && isSearchableName(entry.name)) files.push([abs, rel]);
      } else if (entry.isSymbolicLink() && !entry.name.startsWith(".")) {
        let target: string;
        try {
          target = await realpath(abs);
        } catch {
          continue; // Dangling link.
        }
        if (!isInside(options.root, target)) {
          result.symlinksOutside += 1;
          continue;
        }
        const info = await stat(abs).catch(() => undefined);
        if (info?.isDirectory() && !isSkippedDirectory(entry.name)) subdirectories.push([abs, rel]);
        else if (info?.isFile() && isSearchableName(entry.name)) files.push([abs, rel]);
      }
    }
    const stats = await Promise.all(files.map(([abs]) => stat(abs).catch(() => undefined)));
    stats.forEach((info, i) => {
      if (!info?.isFile() || result.truncated) return;
      if (result.files.length >= options.maxFiles) {
        result.truncated = true;
        return;
      }
      const [abs, rel] = files[i]!;
      result.files.push({ path: rel, absolutePath: abs, size: info.size, mtimeMs: info.mtimeMs });
    });
    for (const [abs, rel] of subdirectories) await visit(abs, rel, depth + 1);
  };

  await visit(options.root, "", 0);
  return result;
}
