import { z } from "@muster/plugin";

/** The `search` section of `muster.config.json`. */
export const searchConfigSchema = z.strictObject({
  /** Files larger than this are not indexed (bytes). */
  maxFileBytes: z.number().int().min(1).max(16 * 1024 * 1024).default(1024 * 1024),
  /** At most this many files are indexed; the walk stops (and says so in the stats) beyond it. */
  maxFiles: z.number().int().min(1).max(1_000_000).default(100_000),
  /**
   * Watcher changes only invalidate the file's row (the next start re-reads it); once this
   * many files (or a tenth of the index, whichever is more) changed, the whole index is
   * saved again, `saveDelayMs` later. It is always saved at shutdown and after full builds.
   */
  fullSaveAfterChanges: z.number().int().min(1).max(1_000_000).default(500),
  /** Delay before such a full save (ms). */
  saveDelayMs: z.number().int().min(0).max(600_000).default(5_000),
  /**
   * During the first build (no saved index), how often the files read so far are made
   * searchable (ms; a new partial index also needs twice the documents of the last one).
   */
  publishEveryMs: z.number().int().min(0).max(600_000).default(250),
  /**
   * A full build of this many files or more reads, parses and indexes them in a child process
   * (the server decodes the result); a smaller one runs on the server's thread, where it costs
   * less than starting a process.
   */
  builderProcessMinFiles: z.number().int().min(1).max(10_000_000).default(2_000),
  /** No longer used: searches never wait for the start-up load (accepted so existing configuration files still load). */
  readyTimeoutMs: z.number().int().min(0).max(600_000).default(15_000),
});

export type SearchConfig = z.output<typeof searchConfigSchema>;
