import type { ApprovalRecord } from "./services/approval-record.ts";

/** The lifecycle steps an approval event reports. */
export type ApprovalVerb = "created" | "approved" | "rejected" | "executed" | "execution_failed";

/** An approval as events carry it: without the payload and the execution result. */
export type ApprovalEventPayload = Omit<ApprovalRecord, "payload" | "executionResult">;

/** Events the approvals plugin publishes (all public: forwarded to SSE clients). */
export type ApprovalEvents = { [V in ApprovalVerb as `approvals.approval.${V}`]: ApprovalEventPayload };

declare module "@muster/plugin" {
  interface MusterEvents extends ApprovalEvents {}
}
