import { raw, type Database } from "@muster/plugin";
import { Approval } from "../entities/approval.ts";
import { APPROVAL_FIELDS, SUMMARY_FIELDS, type ApprovalStatus, type ApprovalSummaryRow, type ExecutionStatus, type StoredApproval } from "./approval-record.ts";

export type NewApprovalRow = Omit<StoredApproval, "status" | "reason" | "decidedBy" | "resolvedAt" | "executionStatus" | "executionResult" | "executionError" | "executedAt">;

export interface Transition {
  id: string;
  status: Exclude<ApprovalStatus, "pending">;
  reason: string | null;
  decidedBy: string;
  resolvedAt: string;
  /** Set `executionStatus = 'running'` in the same statement (approving a gated action). */
  startExecution: boolean;
}

/** Still pending at `now`: not decided and not expired. */
const pendingAt = (now: string) => ({ status: "pending" as const, $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] });
/** Pending but expired by `now`, and not yet swept. */
const expiredBy = (now: string) => ({ status: "pending" as const, expiresAt: { $ne: null, $lte: now } });

const INTERRUPTED = "Muster stopped before the action finished; it was not retried. Check whether it took effect.";

/**
 * `approvals_approvals`: reads and plain updates through MikroORM's query builder (plain
 * rows, no entities).
 *
 * The two conditional changes, the capped insert and the decision, are each one SQL
 * statement run synchronously on the shared connection: the condition (the requester's
 * pending count, the row still pending) and the write are one step that no other request
 * can interleave with, so concurrent requesters cannot both slip under the cap and exactly
 * one of any number of concurrent deciders wins. Both are prepared once.
 */
export class ApprovalStore {
  private readonly db: () => Database;
  private insertStatement?: ReturnType<Database["sql"]["prepare"]>;
  private transitionStatement?: ReturnType<Database["sql"]["prepare"]>;
  constructor(db: () => Database) {
    this.db = db;
  }

  private qb() {
    return this.db().em().createQueryBuilder(Approval);
  }

  /**
   * Inserts a new approval unless its requester already has `maxPending` unexpired pending
   * ones. Returns whether the row was inserted. The status column is always written as
   * `pending` here and nowhere else.
   */
  insertWithinCap(row: NewApprovalRow, cap: { requesterKey: string; maxPending: number; now: string }): boolean {
    this.insertStatement ??= this.db().sql.prepare(
      `INSERT INTO approvals_approvals (id, taskId, title, requestedBy, requesterKey, approver, status, command, context, description, gated, payload, payloadHash, createdAt, expiresAt)
       SELECT @id, @taskId, @title, @requestedBy, @requesterKey, @approver, 'pending', @command, @context, @description, @gated, @payload, @payloadHash, @createdAt, @expiresAt
       WHERE (SELECT count(*) FROM approvals_approvals
              WHERE requesterKey = @requesterKey AND status = 'pending' AND (expiresAt IS NULL OR expiresAt > @now)) < @maxPending`,
    );
    return this.insertStatement.run({ ...row, gated: row.gated ? 1 : 0, ...cap }).changes === 1;
  }

  /**
   * The one place a decision is written: a conditional update that only a still-pending,
   * unexpired row matches. Returns whether this call made the transition.
   */
  transition(t: Transition, now: string): boolean {
    this.transitionStatement ??= this.db().sql.prepare(
      `UPDATE approvals_approvals
       SET status = @status, reason = @reason, approver = @decidedBy, decidedBy = @decidedBy, resolvedAt = @resolvedAt,
           executionStatus = CASE WHEN @startExecution = 1 THEN 'running' ELSE executionStatus END
       WHERE id = @id AND status = 'pending' AND (expiresAt IS NULL OR expiresAt > @now)`,
    );
    return this.transitionStatement.run({ ...t, startExecution: t.startExecution ? 1 : 0, now }).changes === 1;
  }

  /** The whole approval, payload and result included. */
  async get(id: string): Promise<StoredApproval | undefined> {
    return (await this.qb().select(APPROVAL_FIELDS).where({ id }).execute<StoredApproval | null>("get")) ?? undefined;
  }

  /** One page of the approvals still pending at `now` (not expired), newest first, without payloads. Reads only. */
  pendingPage(now: string, limit: number, offset: number): Promise<ApprovalSummaryRow[]> {
    return this.qb()
      .select(SUMMARY_FIELDS)
      .where(pendingAt(now))
      .orderBy([{ createdAt: "desc" }, { [raw("rowid")]: "desc" }])
      .limit(limit, offset)
      .execute<ApprovalSummaryRow[]>("all");
  }

  /** How many approvals are still pending at `now`. */
  pendingCount(now: string): Promise<number> {
    return this.db().em().count(Approval, pendingAt(now));
  }

  /**
   * Decided approvals and those expired by `now` but not yet swept, most recently resolved
   * first (an expired one resolves at its expiry), without payloads. Reads only.
   */
  history(limit: number, now: string): Promise<ApprovalSummaryRow[]> {
    return this.qb()
      .select(SUMMARY_FIELDS)
      .where({ $or: [{ status: { $ne: "pending" } }, expiredBy(now)] })
      .orderBy([{ [raw("CASE WHEN status = 'pending' THEN expiresAt ELSE resolvedAt END")]: "desc" }, { createdAt: "desc" }, { [raw("rowid")]: "desc" }])
      .limit(limit)
      .execute<ApprovalSummaryRow[]>("all");
  }

  /**
   * Rejects every pending approval whose expiry has passed (`decidedBy` stays null, which
   * marks it as expired; `resolvedAt` is the expiry instant) and returns the changed rows.
   */
  expireDue(now: string): Promise<StoredApproval[]> {
    return this.qb()
      .update({ status: "rejected", reason: "expired", resolvedAt: raw("expiresAt") })
      .where(expiredBy(now))
      .returning(APPROVAL_FIELDS)
      .execute<StoredApproval[]>("all");
  }

  /** Records the executor's outcome; only a `running` execution can finish, and only once. */
  async finishExecution(id: string, outcome: { status: Extract<ExecutionStatus, "succeeded" | "failed">; result: string | null; error: string | null; at: string }): Promise<boolean> {
    const { affectedRows } = await this.qb()
      .update({ executionStatus: outcome.status, executionResult: outcome.result, executionError: outcome.error, executedAt: outcome.at })
      .where({ id, executionStatus: "running" })
      .execute("run");
    return affectedRows === 1;
  }

  /** Executions cut short by a stop or crash: marked failed, never retried. */
  failInterrupted(now: string): Promise<StoredApproval[]> {
    return this.qb()
      .update({ executionStatus: "failed", executedAt: now, executionError: INTERRUPTED })
      .where({ executionStatus: "running" })
      .returning(APPROVAL_FIELDS)
      .execute<StoredApproval[]>("all");
  }
}
