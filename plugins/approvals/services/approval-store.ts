import type { Database } from "../../../core/plugin-api/index.ts";
import { APPROVAL_COLUMNS, type ApprovalRow, type ApprovalStatus, type ExecutionStatus } from "./approval-record.ts";

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

  /** Inserts a new approval; the status column is always written as `pending` here and nowhere else. */
  insert(row: NewApprovalRow): void {
    this.sql
      .prepare(
        `INSERT INTO approvals_approvals (id, taskId, title, requestedBy, approver, status, command, context, description, gated, payload, payloadHash, createdAt, expiresAt)
         VALUES (@id, @taskId, @title, @requestedBy, @approver, 'pending', @command, @context, @description, @gated, @payload, @payloadHash, @createdAt, @expiresAt)`,
      )
      .run(row);
  }

  get(id: string): ApprovalRow | undefined {
    return this.sql.prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals_approvals WHERE id = ?`).get(id) as ApprovalRow | undefined;
  }

  /** Pending approvals, newest first. */
  pending(): ApprovalRow[] {
    return this.sql.prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals_approvals WHERE status = 'pending' ORDER BY createdAt DESC, rowid DESC`).all() as ApprovalRow[];
  }

  /** Decided approvals, most recently resolved first. */
  history(limit: number): ApprovalRow[] {
    return this.sql
      .prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals_approvals WHERE status != 'pending' ORDER BY resolvedAt DESC, createdAt DESC, rowid DESC LIMIT ?`)
      .all(limit) as ApprovalRow[];
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
