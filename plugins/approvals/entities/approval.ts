import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * One entry of the human approval queue (spec: Approval, plus the gate's fields): the one
 * declaration of `approvals_approvals` (migrations.ts creates it; a test checks they agree).
 * Row types derive from it; services/approval-store.ts reads and writes it.
 */
export const Approval = defineEntity({
  name: "Approval",
  tableName: "approvals_approvals",
  properties: {
    id: p.string().primary(),
    /** A task reference or free-text subject (`taskId ?? title`). */
    taskId: p.string(),
    title: p.string(),
    requestedBy: p.string(),
    /** `requestedBy`'s comparison key (services/person.ts), for the per-requester pending cap; never shown. */
    requesterKey: p.string().nullable(),
    /** Who is asked to decide; after the decision, who decided. */
    approver: p.string(),
    status: p.enum(["pending", "approved", "rejected"]),
    /** The kind of action (`type` of POST, or the gated action kind). */
    command: p.string().nullable(),
    context: p.string().nullable(),
    /** What approving will do, from the gated action's `describe(payload)`. */
    description: p.string().nullable(),
    /** Whether approving runs a gated action's executor. */
    gated: p.boolean().default(0),
    /** The exact payload as JSON text. */
    payload: p.text().nullable(),
    /** SHA-256 (hex) of the stored payload JSON text. */
    payloadHash: p.string().nullable(),
    /** The decision reason. */
    reason: p.string().nullable(),
    /** Who decided; null while pending and for expired approvals. */
    decidedBy: p.string().nullable(),
    createdAt: p.string(),
    resolvedAt: p.string().nullable(),
    expiresAt: p.string().nullable(),
    /** `running` only between an approval and the end of its executor (or a restart, which turns it into `failed`). */
    executionStatus: p.enum(["none", "running", "succeeded", "failed"]).default("none"),
    /** The executor's result as JSON text. */
    executionResult: p.text().nullable(),
    executionError: p.string().nullable(),
    executedAt: p.string().nullable(),
    /** The instance running the executor while `running` (`hostTokens.instances`); never shown. */
    executionOwner: p.string().nullable(),
  },
  checks: [{ name: "approvals_approvals_gated_check", expression: "gated IN (0, 1)" }],
  // The migration creates the first two with a descending second column; SQLite reports no
  // sort order when the schema is compared, so they are declared by their columns only.
  indexes: [
    { name: "approvals_pending", properties: ["status", "createdAt"] },
    { name: "approvals_history", properties: ["status", "resolvedAt"] },
    { name: "approvals_requester_pending", properties: ["requesterKey", "status"] },
  ],
});

/** A stored approval as the query builder returns it (`gated` as a boolean, JSON columns as text). */
export type ApprovalRow = EntityRow<typeof Approval>;
