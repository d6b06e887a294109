import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, rmdir, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * All-or-nothing writes of several files (the factory and pack installs). Every file is first
 * written to a temporary sibling; `commit` renames them into place one by one. Any failure,
 * before or during the renames, removes the temporaries, restores the files that were
 * replaced and removes the directories this batch created, so nothing is left behind.
 */
export class StagedFiles {
  private readonly staged: { target: string; temp: string }[] = [];
  private readonly createdDirs: string[] = [];
  private readonly committed: { target: string; previous: Buffer | null }[] = [];

  /** Creates `dir` (and missing parents), remembering which ones this batch made. */
  async mkdir(dir: string): Promise<void> {
    const missing: string[] = [];
    for (let d = dir; ; d = dirname(d)) {
      if (await exists(d)) break;
      missing.unshift(d);
      if (dirname(d) === d) break;
    }
    for (const d of missing) {
      await mkdir(d);
      this.createdDirs.push(d);
    }
  }

  /** Writes `content` to a temporary file next to `target`. */
  async write(target: string, content: string): Promise<void> {
    await this.mkdir(dirname(target));
    const temp = `${target}.tmp-${randomUUID()}`;
    this.staged.push({ target, temp });
    await writeFile(temp, content, { flag: "wx" });
  }

  /** Moves every staged file into place, in the order written; on any error rolls everything back and rethrows. */
  async commit(): Promise<void> {
    try {
      for (const { target, temp } of this.staged) {
        const previous = await readFile(target).catch(() => null);
        await rename(temp, target);
        this.committed.push({ target, previous });
      }
    } catch (error) {
      await this.rollback();
      throw error;
    }
  }

  /** Undoes everything (safe to call more than once). */
  async rollback(): Promise<void> {
    for (const { target, previous } of this.committed.reverse()) {
      if (previous === null) await rm(target, { force: true }).catch(() => {});
      else await writeFile(target, previous).catch(() => {});
    }
    this.committed.length = 0;
    for (const { temp } of this.staged) await rm(temp, { force: true }).catch(() => {});
    for (const dir of this.createdDirs.reverse()) await rmdir(dir).catch(() => {});
    this.createdDirs.length = 0;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
