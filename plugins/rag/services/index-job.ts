/** Progress of one indexing run, as POST /api/memory/rag and the `rag.index.*` events report it. */
export interface IndexJob {
  id: string;
  status: "queued" | "running" | "done" | "failed" | "cancelled";
  /** Files finished (stored, skipped as vanished, or removed) of `total` changed files. */
  done: number;
  total: number;
  provider: string;
  /** Why a job failed or was cancelled: the coded error of the provider, or the switch. */
  error?: { code: string; message: string };
}
