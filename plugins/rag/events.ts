import type { IndexJob } from "./services/index-job.ts";

/** Events the rag plugin publishes (public: forwarded to SSE clients). */
export interface RagEvents {
  /** After each file of an indexing job (done of total). */
  "rag.index.progress": { job: IndexJob };
  /** A job ended: status `done`, `failed` (with `error`) or `cancelled` (provider switched). */
  "rag.index.finished": { job: IndexJob };
}

declare module "@muster/plugin" {
  interface MusterEvents extends RagEvents {}
}
