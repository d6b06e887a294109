import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Replaces `path` atomically: the text goes to a temporary file in the same directory,
 * is flushed to disk (fsync), then renamed over the target, and the directory entry is
 * flushed too. Readers see the old file or the new one, never a mix; the temporary file
 * is removed on any failure.
 */
export async function writeFileAtomic(path: string, text: string, mode: number): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", mode);
  try {
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  const dirHandle = await open(dir, "r").catch(() => null);
  if (dirHandle) {
    await dirHandle.sync().catch(() => undefined);
    await dirHandle.close();
  }
}
