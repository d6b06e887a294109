import { defineEntity, p } from "@muster/plugin";

/**
 * One entry of the human approval queue (spec: Approval, plus the gate's fields). Rows are
 * written by {@link ApprovalService} with synchronous SQL transactions, because a decision
 * must be one conditional `UPDATE … WHERE status = 'pending'` that nothing can interleave
 * with; the entity documents the table for the ORM.
 */
export const Approval = defineEntity({
  name: "Approval",
  tableName: "approvals_approvals",
  properties: {
    id: p.string().primary(),
    taskId: p.string(),
    title: p.string(),
    requestedBy: p.string(),
    /** `requestedBy`'s comparison key (services/person.ts), for the per-requester pending cap. */
    requesterKey: p.string().nullable(),
    approver: p.string(),
    status: p.string(),
    command: p.string().nullable(),
    context: p.string().nullable(),
    description: p.string().nullable(),
    gated: p.boolean(),
    payload: p.text().nullable(),
    payloadHash: p.string().nullable(),
    reason: p.string().nullable(),
    decidedBy: p.string().nullable(),
    createdAt: p.string(),
    resolvedAt: p.string().nullable(),
    expiresAt: p.string().nullable(),
    executionStatus: p.string(),
    executionResult: p.text().nullable(),
    executionError: p.string().nullable(),
    executedAt: p.string().nullable(),
  },
});
