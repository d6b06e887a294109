import { z, schemas } from "@muster/plugin";

const person = z.string().trim().min(1).max(128);

export const approvalSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  title: z.string(),
  requestedBy: z.string(),
  approver: z.string(),
  status: z.enum(["pending", "approved", "rejected"]),
  command: z.string().nullable(),
  context: z.string().nullable(),
  description: z.string().nullable(),
  gated: z.boolean(),
  payload: z.unknown(),
  payloadHash: z.string().nullable(),
  reason: z.string().nullable(),
  decidedBy: z.string().nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  expired: z.boolean(),
  executionStatus: z.enum(["none", "running", "succeeded", "failed"]),
  executionResult: z.unknown(),
  executionError: z.string().nullable(),
  executedAt: z.string().nullable(),
});

/** What lists carry of an approval: no `payload`, no `executionResult` (GET /api/approvals/{id} has them). */
export const approvalSummarySchema = approvalSchema.omit({ payload: true, executionResult: true });

export const listApprovalsQuery = z.strictObject({
  /** History entries (default 50, max 500). */
  limit: schemas.limit(50, 500),
  /** Pending entries per page (default 100, max 500). */
  pendingLimit: schemas.limit(100, 500),
  /** Pending entries to skip (newest first). */
  pendingOffset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const approvalParams = z.strictObject({ id: schemas.id });

/** DESIGN §5: `taskId = taskId ?? title`, `command = type`, `approver = approver ?? owner`. No `status`: always created pending. */
export const createApprovalBody = z.strictObject({
  title: z.string().min(1).max(500),
  type: z.string().min(1).max(128),
  requestedBy: person,
  context: z.string().max(10_000),
  taskId: z.string().min(1).max(500).optional(),
  approver: person.optional(),
  payload: z.json().optional(),
  expiresAt: schemas.timestamp.optional(),
});

export const decideApprovalBody = z.strictObject({
  status: z.enum(["approved", "rejected"]),
  reason: z.string().max(2000).optional(),
  decidedBy: person.optional(),
});

export const listApprovalsResponse = z.object({
  ok: z.literal(true),
  pending: z.array(approvalSummarySchema),
  pendingTotal: z.number().int(),
  history: z.array(approvalSummarySchema),
});
export const approvalResponse = z.object({ ok: z.literal(true), approval: approvalSchema });
