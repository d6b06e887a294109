import { token, type GateRequestOptions, type GateRequestResult } from "@muster/plugin";
import type { ApprovalRecord } from "./services/approval-record.ts";
import type { ApprovalList, Decision, ExternalOutcome, NewApproval } from "./services/approval-service.ts";

/** The Approval record as routes answer it (`GET /api/approvals/{id}`), for another plugin's response schema that returns one. */
export { approvalSchema } from "./http/schemas.ts";
export type { ApprovalList, ApprovalRecord, Decision, ExternalOutcome, NewApproval };

/** The human approval queue: create, list, decide. */
export interface ApprovalQueue {
  /** `POST /api/approvals`: a plain approval; approving it runs nothing. */
  create(input: NewApproval): Promise<ApprovalRecord>;
  /** The gate's backend: a pending approval for a gated action kind. */
  requestGated(kind: string, payload: unknown, options: GateRequestOptions): Promise<GateRequestResult>;
  list(page: { historyLimit: number; pendingLimit: number; pendingOffset: number }): Promise<ApprovalList>;
  get(id: string): Promise<ApprovalRecord>;
  /** Records a human decision; an approved gated action runs once, after the transition. */
  decide(id: string, decision: Decision): Promise<ApprovalRecord>;
  /**
   * Closes a still-pending approval that was settled outside Muster (in the OpenClaw gateway,
   * or by an auto-deny rule): one conditional transition, so it and a human decision cannot
   * both win (the loser gets 409). Runs no executor. `decidedBy` is not checked against the
   * configured humans: it names where the outcome came from ("openclaw", "policy").
   */
  closeExternally(id: string, outcome: ExternalOutcome): Promise<ApprovalRecord>;
  /** Moves expired pending approvals to history; returns how many. */
  sweepExpired(): Promise<number>;
  /** Marks executions a previous or dead process left unfinished (no live instance runs them) as failed; returns how many. */
  recoverInterrupted(): Promise<number>;
}

/**
 * The approval queue service (create, list, decide). Plugins that request external actions
 * use `ctx.gate` instead; this token is for plugins that decide on a human's behalf through
 * another channel (the messenger webhook's inline buttons). Depend on `approvals` to use it.
 */
export const APPROVALS = token<ApprovalQueue>("approvals.service");
