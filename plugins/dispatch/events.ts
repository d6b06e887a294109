import type { DispatchRecord } from "./tokens.ts";

/** Events the dispatch plugin publishes (public: forwarded to SSE clients). */
export interface DispatchEvents {
  "dispatch.dispatch.created": DispatchRecord;
  "dispatch.dispatch.updated": DispatchRecord;
  "dispatch.task.escalated": { taskId: string; agentId: string | null; toLevel: string; to: string | null; reason: string };
}

declare module "@muster/plugin" {
  interface MusterEvents extends DispatchEvents {}
}
