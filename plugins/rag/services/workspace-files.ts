import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { WORKSPACE_SKIPPED_DIRECTORIES } from "@muster/plugin";

/** Hidden directories (`.git`, `.openclaw`, …) and the ones full-text search skips too, so both index the same files. */
const isSkipped = (name: string) => name.startsWith(".") || WORKSPACE_SKIPPED_DIRECTORIES.has(name);

/** Workspace-relative paths of the markdown files worth embedding (workspace documents and memory). */
export async function listMarkdown(root: string, options: { maxFiles: number; maxFileBytes: number }): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // removed while walking
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= options.maxFiles) return;
      if (isSkipped(e.name)) continue;
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(join(dir, e.name), relPath);
      else if (e.isFile() && e.name.toLowerCase().endsWith(".md")) {
        const s = await stat(join(dir, e.name)).catch(() => null);
        if (s && s.size <= options.maxFileBytes) out.push(relPath);
      }
    }
  };
  await walk(root, "");
  return out;
}

export const isIndexable = (path: string) => path.toLowerCase().endsWith(".md") && !path.split("/").some(isSkipped);

export const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

/** The file's text, or null when it is gone or unreadable. */
export const readText = (absolute: string) => readFile(absolute, "utf8").catch(() => null);
