import { atomically, defineStore, insertionOrder, raw, type Database, type EntityStore } from "@muster/plugin";
import { Approval } from "../entities/approval.ts";
import { APPROVAL_FIELDS, SUMMARY_FIELDS, type ApprovalStatus, type ApprovalSummaryRow, type ExecutionStatus, type StoredApproval } from "./approval-record.ts";

export type NewApprovalRow = Omit<StoredApproval, "status" | "reason" | "decidedBy" | "resolvedAt" | "executionStatus" | "executionResult" | "executionError" | "executedAt">;

export interface Transition {
  id: string;
  status: Exclude<ApprovalStatus, "pending">;
  reason: string | null;
  decidedBy: string;
  resolvedAt: string;
  /** Set `executionStatus = 'running'` (and this instance as the executor's) in the same statement (approving a gated action). */
  startExecution: boolean;
}

/** Still pending at `now`: not decided and not expired. */
const pendingAt = (now: string) => ({ status: "pending" as const, $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] });
/** Pending but expired by `now`, and not yet swept. */
const expiredBy = (now: string) => ({ status: "pending" as const, expiresAt: { $ne: null, $lte: now } });

/** Every column but those never shown (the requester's comparison key, the executing instance). */
const approvals = defineStore(Approval, { fields: APPROVAL_FIELDS });

/** Newest first; rows created in the same millisecond newest-inserted first. */
const NEWEST_FIRST = [{ createdAt: "desc" as const }, insertionOrder("desc")];

/** Names quoted: PostgreSQL folds unquoted ones to lower case; SQLite reads both alike. Prepared once per connection on SQLite (`atomically`). */
const CAPPED_INSERT = `INSERT INTO approvals_approvals (id, "taskId", title, "requestedBy", "requesterKey", approver, status, command, context, description, gated, payload, "payloadHash", "createdAt", "expiresAt")
  SELECT ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?
  WHERE (SELECT count(*) FROM approvals_approvals
         WHERE "requesterKey" = ? AND status = 'pending' AND ("expiresAt" IS NULL OR "expiresAt" > ?)) < ?`;

const INTERRUPTED = "Muster stopped before the action finished; it was not retried. Check whether it took effect.";

/**
 * `approvals_approvals` over the store kit (plain rows, no entities). A decision and an
 * execution's outcome are the kit's `transition`: one conditional UPDATE that only a row
 * still in the expected state matches, so exactly one of any number of concurrent deciders
 * wins. Sweeps are bulk conditional updates through the query builder.
 *
 * The capped insert is raw SQL in one atomic step (the kit's `atomically`): its condition
 * reads other rows (the requester's pending count), which no single-row step of the kit can
 * express, and the count and the insert must be one step so concurrent requesters cannot
 * both slip under the cap.
 */
export class ApprovalStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof Approval>;
  /** This instance's id, recorded on the executions it starts (team mode); null in a store without one. */
  private readonly owner: () => string | null;
  constructor(db: () => Database, owner: () => string | null = () => null) {
    this.db = db;
    this.rows = approvals.on(db);
    this.owner = owner;
  }

  private qb() {
    return this.rows.qb();
  }

  /**
   * Inserts a new approval unless its requester already has `maxPending` unexpired pending
   * ones. Resolves to whether the row was inserted. The status column is always written as
   * `pending` here and nowhere else.
   */
  insertWithinCap(row: NewApprovalRow, cap: { requesterKey: string; maxPending: number; now: string }): Promise<boolean> {
    const db = this.db();
    const values = [row.id, row.taskId, row.title, row.requestedBy, cap.requesterKey, row.approver, row.command, row.context, row.description, row.gated, row.payload, row.payloadHash, row.createdAt, row.expiresAt];
    return atomically(db, function* (tx) {
      // SQLite: the step is one synchronous transaction on the shared connection, which nothing
      // interleaves with. PostgreSQL (READ COMMITTED): concurrent transactions would each count
      // before the others' inserts commit and all slip under the cap, so the requester's
      // transactions queue on a lock held until commit; the count runs after the lock, on a
      // snapshot that sees the previous holder's insert.
      yield* tx.lock(`approvals_approvals:${cap.requesterKey}`);
      return (yield* tx.run(CAPPED_INSERT, [...values, cap.requesterKey, cap.now, cap.maxPending])).changes === 1;
    });
  }

  /**
   * The one place a decision is written: a conditional update that only a still-pending,
   * unexpired row matches. Returns the decided row when this call made the transition,
   * null when another decision (or the expiry) came first.
   */
  async transition(t: Transition, now: string): Promise<StoredApproval | null> {
    const set = { status: t.status, reason: t.reason, approver: t.decidedBy, decidedBy: t.decidedBy, resolvedAt: t.resolvedAt, ...(t.startExecution ? { executionStatus: "running" as const, executionOwner: this.owner() } : {}) };
    return this.rows.transition(t.id, { from: pendingAt(now), set });
  }

  /** The whole approval, payload and result included. */
  async get(id: string): Promise<StoredApproval | undefined> {
    return (await this.rows.get(id)) ?? undefined;
  }

  /** One page of the approvals still pending at `now` (not expired), newest first, without payloads. Reads only. */
  pendingPage(now: string, limit: number, offset: number): Promise<ApprovalSummaryRow[]> {
    return this.rows.list({ fields: SUMMARY_FIELDS, where: pendingAt(now), orderBy: NEWEST_FIRST, limit, offset });
  }

  /** How many approvals are still pending at `now`. */
  pendingCount(now: string): Promise<number> {
    return this.rows.count(pendingAt(now));
  }

  /**
   * Decided approvals and those expired by `now` but not yet swept, most recently resolved
   * first (an expired one resolves at its expiry), without payloads. Reads only.
   */
  history(limit: number, now: string): Promise<ApprovalSummaryRow[]> {
    return this.rows.list({
      fields: SUMMARY_FIELDS,
      where: { $or: [{ status: { $ne: "pending" } }, expiredBy(now)] },
      // Quoted names: PostgreSQL folds unquoted ones to lower case; SQLite reads both alike.
      orderBy: [{ [raw(`CASE WHEN status = 'pending' THEN "expiresAt" ELSE "resolvedAt" END`)]: "desc" }, ...NEWEST_FIRST],
      limit,
    });
  }

  /**
   * Rejects every pending approval whose expiry has passed (`decidedBy` stays null, which
   * marks it as expired; `resolvedAt` is the expiry instant) and returns the changed rows.
   */
  expireDue(now: string): Promise<StoredApproval[]> {
    return this.qb()
      .update({ status: "rejected", reason: "expired", resolvedAt: raw(`"expiresAt"`) }) // quoted: PostgreSQL folds unquoted names
      .where(expiredBy(now))
      .returning(APPROVAL_FIELDS)
      .execute<StoredApproval[]>("all");
  }

  /** Records the executor's outcome; only a `running` execution can finish, and only once. */
  async finishExecution(id: string, outcome: { status: Extract<ExecutionStatus, "succeeded" | "failed">; result: string | null; error: string | null; at: string }): Promise<boolean> {
    const set = { executionStatus: outcome.status, executionResult: outcome.result, executionError: outcome.error, executedAt: outcome.at };
    return (await this.rows.transition(id, { from: { executionStatus: "running" }, set })) !== null;
  }

  /**
   * Executions cut short by a stop or crash: marked failed, never retried. Only those no
   * instance in `live` is running (`hostTokens.instances.liveIds()`; empty: every one).
   */
  failInterrupted(now: string, live: readonly string[] = []): Promise<StoredApproval[]> {
    const orphaned = live.length ? { executionStatus: "running" as const, $or: [{ executionOwner: null }, { executionOwner: { $nin: [...live] } }] } : { executionStatus: "running" as const };
    return this.qb()
      .update({ executionStatus: "failed", executedAt: now, executionError: INTERRUPTED })
      .where(orphaned)
      .returning(APPROVAL_FIELDS)
      .execute<StoredApproval[]>("all");
  }
}
