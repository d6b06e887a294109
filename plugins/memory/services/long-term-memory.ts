import type { WorkspacePaths } from "@muster/plugin";
import type { MemoryConfig } from "../config.ts";
import { memoryErrors } from "../errors.ts";
import { outsideAsMissing, readTextFile } from "./text-file.ts";

/** The curated `MEMORY.md` (spec: Long-term memory). */
export interface LongTermMemory {
  path: string;
  content: string;
  wordCount: number;
  modifiedAt: string;
  size: number;
  truncated: boolean;
}

export const LONG_TERM_FILE = "MEMORY.md";

/** Reads MEMORY.md; 404 `MEMORY_LONGTERM_NOT_FOUND` when absent, 422 `MEMORY_FILE_NOT_TEXT` when binary. */
export async function readLongTermMemory(deps: { workspace: WorkspacePaths; config: MemoryConfig }): Promise<LongTermMemory> {
  const read = await readTextFile(deps.workspace, LONG_TERM_FILE, {
    maxBytes: deps.config.contentMaxBytes,
    wordCountMaxBytes: deps.config.wordCountMaxBytes,
  }).catch(outsideAsMissing);
  if (!read) throw memoryErrors.MEMORY_LONGTERM_NOT_FOUND();
  if (read.binary) throw memoryErrors.MEMORY_FILE_NOT_TEXT({ path: LONG_TERM_FILE });
  return { path: read.path, content: read.content, wordCount: read.wordCount, modifiedAt: read.modifiedAt, size: read.size, truncated: read.truncated };
}
