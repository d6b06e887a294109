import type { CouncilSessionRecord } from "./services/council-record.ts";

/** One step of a running deliberation. */
export interface CouncilProgress {
  id: string;
  step: "position" | "proposal" | "vote";
  agentId: string;
  /** The round of a position; null for the proposal and votes. */
  round: number | null;
}

/** Events the council publishes (all public: forwarded to SSE clients). */
export interface CouncilEvents {
  "council.session.created": CouncilSessionRecord;
  "council.session.progressed": CouncilProgress;
  "council.session.completed": CouncilSessionRecord;
  "council.session.failed": CouncilSessionRecord;
  "council.session.cancelled": CouncilSessionRecord;
  /** A human approved the decision (the `council.decision` approval). */
  "council.session.ratified": CouncilSessionRecord;
}

declare module "@muster/plugin" {
  interface MusterEvents extends CouncilEvents {}
}
