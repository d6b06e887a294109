/** What the `local` provider hands its worker thread. */
export interface WorkerSetup {
  /** The package's word-vector JSON, read only when the cache is missing or unusable. */
  jsonPath: string;
  /** The binary cache file (written atomically on first use). */
  cachePath: string;
}

/** Worker → provider messages. Batches are `{ id, texts }` the other way, answered in order. */
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
  | { type: "vectors"; id: number; vectors?: number[][]; error?: string };
