import { createHash } from "node:crypto";
import { Approval, type ApprovalRow } from "../entities/approval.ts";

export type { ApprovalRow };
export type ApprovalStatus = ApprovalRow["status"];
export type ExecutionStatus = ApprovalRow["executionStatus"];

/** Columns the store keeps to itself: the requester's comparison key and the instance running the executor. */
type Unshown = "requesterKey" | "executionOwner";

/** A stored approval as it is read: every column but those never shown. */
export type StoredApproval = Omit<ApprovalRow, Unshown>;

/** An approval as the API returns it: the stored row with its JSON parsed, and whether it expired. */
export type ApprovalRecord = Omit<StoredApproval, "payload" | "executionResult"> & {
  /** The exact stored payload (parsed), or null. */
  payload: unknown;
  executionResult: unknown;
  /** True for an approval that was rejected because it expired without a decision. */
  expired: boolean;
};

/** What lists show of an approval: everything but the payload and the executor's result (one approval's GET carries those). */
export type ApprovalSummary = Omit<ApprovalRecord, "payload" | "executionResult">;
export type ApprovalSummaryRow = Omit<StoredApproval, "payload" | "executionResult">;

/** The columns an approval is shown with, and those of a list entry; derived once from the entity. */
export const APPROVAL_FIELDS = (Object.keys(Approval.meta.properties) as (keyof ApprovalRow)[]).filter((f): f is keyof StoredApproval => f !== "requesterKey" && f !== "executionOwner");
export const SUMMARY_FIELDS = APPROVAL_FIELDS.filter((f): f is keyof ApprovalSummaryRow => f !== "payload" && f !== "executionResult");

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
  return { ...row, expired: isExpired(row) };
}

export function toApprovalRecord(row: StoredApproval): ApprovalRecord {
  return {
    ...row,
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

