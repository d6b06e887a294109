/** What the `local` provider hands its worker thread. */
export interface WorkerSetup {
  /** The package's word-vector JSON, read only when the cache is missing or unusable. */
  jsonPath: string;
  /** The binary cache file (written atomically on first use). */
  cachePath: string;
}

/**
 * Provider → worker messages. Queries (`match`, an `urgent` embed) are answered first; the
 * rest in the order sent, a few texts per turn, so a query waits behind a few texts of a
 * re-index batch at most, never behind the whole batch.
 */
export type WorkerRequest =
  | { type: "embed"; id: number; texts: string[]; urgent?: boolean }
  /** Keeps the worker's soft-match corpus in step with the stored chunks (answered with `corpus`, nothing else). */
  | { type: "corpus"; id: number; add: { id: number; text: string }[]; remove: number[] }
  | { type: "match"; id: number; query: string; limit: number };

/** Worker → provider messages. */
export type WorkerReply =
  | {
      type: "ready";
      source: "cache" | "converted";
      ms: number;
      /** Peak resident memory of the whole process while loading, in MB. */
      peakRssMb: number;
      rebuiltBecause?: string;
    }
  | { type: "failed"; reason: string }
  | { type: "vectors"; id: number; vectors?: number[][]; error?: string }
  | { type: "matches"; id: number; matches?: { id: number; score: number }[]; error?: string }
  | { type: "corpus"; id: number; error?: string };
