import type { Database } from "@muster/plugin";
import { APPROVAL_COLUMNS, SUMMARY_COLUMNS, type ApprovalRow, type ApprovalStatus, type ApprovalSummaryRow, type ExecutionStatus } from "./approval-record.ts";

export type NewApprovalRow = Omit<ApprovalRow, "status" | "reason" | "decidedBy" | "resolvedAt" | "executionStatus" | "executionResult" | "executionError" | "executedAt">;

export interface Transition {
  id: string;
  status: Exclude<ApprovalStatus, "pending">;
  reason: string | null;
  decidedBy: string;
  resolvedAt: string;
  /** Set `executionStatus = 'running'` in the same statement (approving a gated action). */
  startExecution: boolean;
}

/** SQL access to `approvals_approvals`; bound parameters only. */
export class ApprovalStore {
  private readonly db: () => Database;
  constructor(db: () => Database) {
    this.db = db;
  }

  private get sql() {
    return this.db().sql;
  }

  /**
   * Inserts a new approval unless its requester already has `maxPending` unexpired pending
   * ones: the count and the insert are one statement, so concurrent requests cannot both
   * slip under the cap. Returns whether the row was inserted. The status column is always
   * written as `pending` here and nowhere else.
   */
  insertWithinCap(row: NewApprovalRow, cap: { requesterKey: string; maxPending: number; now: string }): boolean {
    return (
      this.sql
        .prepare(
          `INSERT INTO approvals_approvals (id, taskId, title, requestedBy, requesterKey, approver, status, command, context, description, gated, payload, payloadHash, createdAt, expiresAt)
           SELECT @id, @taskId, @title, @requestedBy, @requesterKey, @approver, 'pending', @command, @context, @description, @gated, @payload, @payloadHash, @createdAt, @expiresAt
           WHERE (SELECT count(*) FROM approvals_approvals
                  WHERE requesterKey = @requesterKey AND status = 'pending' AND (expiresAt IS NULL OR expiresAt > @now)) < @maxPending`,
        )
        .run({ ...row, ...cap }).changes === 1
    );
  }

  /** The whole approval, payload and result included. */
  get(id: string): ApprovalRow | undefined {
    return this.sql.prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals_approvals WHERE id = ?`).get(id) as ApprovalRow | undefined;
  }

  /** One page of the approvals still pending at `now` (not expired), newest first, without payloads. Reads only. */
  pendingPage(now: string, limit: number, offset: number): ApprovalSummaryRow[] {
    return this.sql
      .prepare(
        `SELECT ${SUMMARY_COLUMNS} FROM approvals_approvals WHERE status = 'pending' AND (expiresAt IS NULL OR expiresAt > ?)
         ORDER BY createdAt DESC, rowid DESC LIMIT ? OFFSET ?`,
      )
      .all(now, limit, offset) as ApprovalSummaryRow[];
  }

  /** How many approvals are still pending at `now`. */
  pendingCount(now: string): number {
    return (this.sql.prepare("SELECT count(*) AS n FROM approvals_approvals WHERE status = 'pending' AND (expiresAt IS NULL OR expiresAt > ?)").get(now) as { n: number }).n;
  }

  /**
   * Decided approvals and those expired by `now` but not yet swept, most recently resolved
   * first (an expired one resolves at its expiry), without payloads. Reads only.
   */
  history(limit: number, now: string): ApprovalSummaryRow[] {
    return this.sql
      .prepare(
        `SELECT ${SUMMARY_COLUMNS} FROM (
           SELECT ${SUMMARY_COLUMNS}, resolvedAt AS sortAt, rowid AS seq FROM approvals_approvals WHERE status != 'pending'
           UNION ALL
           SELECT ${SUMMARY_COLUMNS}, expiresAt AS sortAt, rowid AS seq FROM approvals_approvals WHERE status = 'pending' AND expiresAt IS NOT NULL AND expiresAt <= ?
         ) ORDER BY sortAt DESC, createdAt DESC, seq DESC LIMIT ?`,
      )
      .all(now, limit) as ApprovalSummaryRow[];
  }

  /**
   * Rejects every pending approval whose expiry has passed (`decidedBy` stays null, which
   * marks it as expired; `resolvedAt` is the expiry instant) and returns the changed rows.
   */
  expireDue(now: string): ApprovalRow[] {
    return this.sql
      .prepare(
        `UPDATE approvals_approvals SET status = 'rejected', reason = 'expired', resolvedAt = expiresAt
         WHERE status = 'pending' AND expiresAt IS NOT NULL AND expiresAt <= ? RETURNING ${APPROVAL_COLUMNS}`,
      )
      .all(now) as ApprovalRow[];
  }

  /**
   * The one place a decision is written: a conditional update that only a still-pending,
   * unexpired row matches. Returns whether this call made the transition (exactly one of
   * any number of concurrent deciders gets `true`).
   */
  transition(t: Transition, now: string): boolean {
    const result = this.sql
      .prepare(
        `UPDATE approvals_approvals
         SET status = @status, reason = @reason, approver = @decidedBy, decidedBy = @decidedBy, resolvedAt = @resolvedAt,
             executionStatus = CASE WHEN @startExecution = 1 THEN 'running' ELSE executionStatus END
         WHERE id = @id AND status = 'pending' AND (expiresAt IS NULL OR expiresAt > @now)`,
      )
      .run({ ...t, startExecution: t.startExecution ? 1 : 0, now });
    return result.changes === 1;
  }

  /** Records the executor's outcome; only a `running` execution can finish, and only once. */
  finishExecution(id: string, outcome: { status: Extract<ExecutionStatus, "succeeded" | "failed">; result: string | null; error: string | null; at: string }): boolean {
    return (
      this.sql
        .prepare(
          `UPDATE approvals_approvals SET executionStatus = @status, executionResult = @result, executionError = @error, executedAt = @at
           WHERE id = @id AND executionStatus = 'running'`,
        )
        .run({ id, ...outcome }).changes === 1
    );
  }

  /** Executions cut short by a stop or crash: marked failed, never retried. */
  failInterrupted(now: string): ApprovalRow[] {
    return this.sql
      .prepare(
        `UPDATE approvals_approvals SET executionStatus = 'failed', executedAt = ?,
           executionError = 'Muster stopped before the action finished; it was not retried. Check whether it took effect.'
         WHERE executionStatus = 'running' RETURNING ${APPROVAL_COLUMNS}`,
      )
      .all(now) as ApprovalRow[];
  }
}
