import { createHash } from "node:crypto";

export type ApprovalStatus = "pending" | "approved" | "rejected";
/** `running` only between an approval and the end of its executor (or a restart, which turns it into `failed`). */
export type ExecutionStatus = "none" | "running" | "succeeded" | "failed";

/** An approval as the API returns it. */
export interface ApprovalRecord {
  id: string;
  /** A task reference or free-text subject (`taskId ?? title`). */
  taskId: string;
  title: string;
  requestedBy: string;
  /** Who is asked to decide; after the decision, who decided. */
  approver: string;
  status: ApprovalStatus;
  /** The kind of action (`type` of POST, or the gated action kind). */
  command: string | null;
  context: string | null;
  /** What approving will do, from the gated action's `describe(payload)`. */
  description: string | null;
  /** Whether approving runs a gated action's executor. */
  gated: boolean;
  /** The exact stored payload (parsed), or null. */
  payload: unknown;
  /** SHA-256 (hex) of the stored payload JSON text. */
  payloadHash: string | null;
  /** The decision reason. */
  reason: string | null;
  /** Who decided; null while pending and for expired approvals. */
  decidedBy: string | null;
  createdAt: string;
  resolvedAt: string | null;
  expiresAt: string | null;
  /** True for an approval that was rejected because it expired without a decision. */
  expired: boolean;
  executionStatus: ExecutionStatus;
  executionResult: unknown;
  executionError: string | null;
  executedAt: string | null;
}

/** The stored row (payload and result as JSON text, booleans as 0/1). */
export interface ApprovalRow extends Omit<ApprovalRecord, "gated" | "payload" | "executionResult" | "expired"> {
  gated: number;
  payload: string | null;
  executionResult: string | null;
}

/** What lists show of an approval: everything but the payload and the executor's result (one approval's GET carries those). */
export type ApprovalSummary = Omit<ApprovalRecord, "payload" | "executionResult">;
export type ApprovalSummaryRow = Omit<ApprovalRow, "payload" | "executionResult">;

export const SUMMARY_COLUMNS =
  "id, taskId, title, requestedBy, approver, status, command, context, description, gated, payloadHash, reason, decidedBy, " +
  "createdAt, resolvedAt, expiresAt, executionStatus, executionError, executedAt";
export const APPROVAL_COLUMNS = `${SUMMARY_COLUMNS}, payload, executionResult`;

/** SHA-256 hex of the exact stored payload text. */
export function hashPayload(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function parseStored(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    // A row edited outside Muster: show what is there rather than failing the whole list.
    return text;
  }
}

/** An expired approval is the only rejected one without a decider. */
export const isExpired = (row: Pick<ApprovalRow, "status" | "decidedBy">): boolean => row.status === "rejected" && row.decidedBy === null;

/**
 * A row as it stands at `now`: a pending row past its expiry reads exactly as the expiry
 * sweep will write it (rejected, reason `expired`, no decider, resolved at the expiry), so
 * reads show expiry without writing.
 */
export function asOf<R extends ApprovalSummaryRow>(row: R, now: string): R {
  if (row.status !== "pending" || row.expiresAt === null || row.expiresAt > now) return row;
  return { ...row, status: "rejected", reason: "expired", decidedBy: null, resolvedAt: row.expiresAt };
}

export function toApprovalSummary(row: ApprovalSummaryRow): ApprovalSummary {
  return { ...row, gated: row.gated === 1, expired: isExpired(row) };
}

export function toApprovalRecord(row: ApprovalRow): ApprovalRecord {
  return {
    ...row,
    gated: row.gated === 1,
    payload: parseStored(row.payload),
    executionResult: parseStored(row.executionResult),
    expired: isExpired(row),
  };
}

/** What events carry: the record without payload and executor result, which may hold data that must not reach SSE clients. */
export function toEventPayload(record: ApprovalRecord) {
  const { payload: _payload, executionResult: _result, ...rest } = record;
  return rest;
}

