import { z } from "@muster/plugin";

/** `config.memory` in muster.config.json. */
export const memoryConfig = z.strictObject({
  /** Largest `content` returned for one daily memory file or MEMORY.md; longer content is cut and flagged `truncated`. */
  contentMaxBytes: z.number().int().min(1024).max(16 * 1024 * 1024).default(256 * 1024),
  /** Largest `content` returned per document by GET /api/docs (a list of up to 200 documents). */
  docsContentMaxBytes: z.number().int().min(256).max(1024 * 1024).default(64 * 1024),
  /** Bytes read per file to count words; beyond this, `wordCount` covers only the first part. */
  wordCountMaxBytes: z.number().int().min(1024).max(16 * 1024 * 1024).default(1024 * 1024),
  /** Largest organisation file parsed. */
  orgFileMaxBytes: z.number().int().min(1024).default(1024 * 1024),
  /** How many directory entries one docs scan visits at most (a guard against runaway trees). */
  docsScanMaxEntries: z.number().int().min(100).default(200_000),
});

export type MemoryConfig = z.output<typeof memoryConfig>;
