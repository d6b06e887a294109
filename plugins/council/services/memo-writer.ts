import { randomBytes } from "node:crypto";
import { link, mkdir, open, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { WorkspacePaths } from "@muster/plugin";

/** Where memos go, relative to the workspace (DESIGN §14.3). */
export const MEMO_DIR = "company/knowledge_base/council";
const SLUG_MAX = 60;

/** `topic` as a file-name slug: ASCII letters and digits joined by `-`, never empty, never a path. */
export function slugify(topic: string): string {
  const slug = topic
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, "");
  return slug || "session";
}

/**
 * Writes a new memo `YYYY-MM-DD-<slug>.md` and returns its workspace-relative path. The text
 * is written and flushed to a temporary file first, then hard-linked to its name, which
 * fails rather than replace an existing file: a reader never sees half a memo, and a second
 * council on the same topic the same day gets `-2`, `-3`, … instead of overwriting the
 * first. Paths go through the workspace resolver, so a symlinked directory leading out of
 * the workspace is refused.
 */
export async function writeMemo(workspace: WorkspacePaths, input: { date: string; topic: string; text: string }): Promise<string> {
  const base = `${MEMO_DIR}/${input.date}-${slugify(input.topic)}`;
  const dir = workspace.resolve(MEMO_DIR);
  await mkdir(dir, { recursive: true });
  // Resolved again now that the directory exists: a symlink on the way is checked by its target.
  const realDir = workspace.resolve(MEMO_DIR);
  const temp = join(realDir, `.memo-${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", 0o644);
  try {
    try {
      await handle.writeFile(input.text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    for (let n = 1; n <= 100; n++) {
      const relative = n === 1 ? `${base}.md` : `${base}-${n}.md`;
      const target = workspace.resolve(relative);
      if (dirname(target) !== realDir) throw new Error("memo path left the council directory");
      try {
        await link(temp, target);
        return relative;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
    throw new Error(`100 memos named ${base} already exist`);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}
