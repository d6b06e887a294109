import { randomUUID } from "node:crypto";
import { atomically, defineStore, type Database, type EntityStore } from "@muster/plugin";
import { BlockedEpisode } from "../entities/blocked-episode.ts";
import { TaskReview, type TaskReviewRow } from "../entities/task-review.ts";
import { ownedByNoneOf } from "./dispatch-store.ts";

const reviews = defineStore(TaskReview, { mapRows: false });
const episodes = defineStore(BlockedEpisode, { mapRows: false });

const REVIEW_COLUMNS = ["id", "taskId", "approvalId", "status", "createdAt", "resolvedAt", "owner"] as const satisfies readonly (keyof TaskReviewRow)[];

// The statements of the atomic steps, in SQL both engines read (quoted camelCase names, `?`).
// The two that run on every task write are prepared once per connection on SQLite (`atomically`).
const PENDING_OF_TASK = `SELECT 1 AS pending FROM dispatch_task_reviews WHERE "taskId" = ? AND status = 'pending' LIMIT 1`;
const INSERT_REVIEW = `INSERT INTO dispatch_task_reviews (${REVIEW_COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES (${REVIEW_COLUMNS.map(() => "?").join(", ")})`;
const END_EPISODE = `DELETE FROM dispatch_blocked_episodes WHERE "taskId" = ?`;
/**
 * Task review records and blocked episodes, on SQLite and PostgreSQL. Plain reads and writes
 * go over the store kit. Each conditional change is one conditional statement (a review's
 * decision, an episode's start) or one atomic step (`atomically`: opening a review checks and
 * inserts), so no other request can come between the check and the write.
 */
export class ReviewStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof TaskReview>;
  private readonly episodes: EntityStore<typeof BlockedEpisode>;
  /** This instance's id, recorded on the reviews it opens (team mode); null in a store without one. */
  private readonly owner: () => string | null;
  constructor(db: () => Database, owner: () => string | null = () => null) {
    this.db = db;
    this.owner = owner;
    this.rows = reviews.on(db);
    this.episodes = episodes.on(db);
  }

  /**
   * Opens a pending review for the task unless one is pending already (then null). On SQLite
   * one synchronous transaction; on PostgreSQL (READ COMMITTED) two openings would each find
   * none pending before the other's insert commits, so the task's openings queue on a
   * transaction advisory lock held until commit, and the check runs after it.
   */
  open(taskId: string, now: string): Promise<TaskReviewRow | null> {
    const db = this.db();
    const owner = this.owner();
    return atomically(db, function* (tx) {
      yield* tx.lock(`dispatch_task_reviews:${taskId}`);
      if (yield* tx.get(PENDING_OF_TASK, [taskId])) return null;
      const row: TaskReviewRow = { id: randomUUID(), taskId, approvalId: null, status: "pending", createdAt: now, resolvedAt: null, owner };
      yield* tx.run(INSERT_REVIEW, REVIEW_COLUMNS.map((c) => row[c]));
      return row;
    });
  }

  async attachApproval(id: string, approvalId: string): Promise<void> {
    await this.rows.update(id, { approvalId });
  }

  /** Forgets a review whose approval could not be created. */
  async discard(id: string): Promise<void> {
    await this.rows.qb().delete().where({ id, status: "pending" }).execute("run");
  }

  /**
   * Decides the pending review of an approval; the row, or null when it was not pending. One
   * conditional update returning the row it changed: of concurrent decisions exactly one gets
   * it (PostgreSQL re-checks the condition on the row it waited for). The task's pending review
   * not yet linked to an approval is the approval's too: the approval is visible (and can be
   * decided) as soon as it is created, a moment before `attachApproval` links it; before, a
   * decision in that moment found no review and left the task in review for good.
   */
  async resolve(approval: { id: string; taskId: string }, status: "approved" | "rejected", now: string): Promise<TaskReviewRow | null> {
    const [row] = await this.rows
      .qb()
      .update({ status, resolvedAt: now, approvalId: approval.id })
      .where({ status: "pending", $or: [{ approvalId: approval.id }, { taskId: approval.taskId, approvalId: null }] })
      .returning([...REVIEW_COLUMNS])
      .execute<TaskReviewRow[]>("all");
    return row ?? null;
  }

  /**
   * Pending reviews never linked to their approval by an instance no longer alive (a kill
   * during the approval's creation); `live` empty: every unlinked one. A live instance's
   * unlinked review is one it is linking right now.
   */
  unlinked(live: readonly string[] = []): Promise<TaskReviewRow[]> {
    return this.rows.list({ where: { status: "pending", approvalId: null, ...ownedByNoneOf(live) } });
  }

  /** Runs on every task update that moves a task to `done` (the review guard). */
  hasPending(taskId: string): Promise<boolean> {
    return atomically(this.db(), function* (tx) {
      return (yield* tx.get(PENDING_OF_TASK, [taskId])) !== undefined;
    });
  }

  /** Starts a blocked episode; false when the task's current episode was already escalated. */
  async startBlockedEpisode(taskId: string, now: string): Promise<boolean> {
    const result = await this.episodes.qb().insert({ taskId, notifiedAt: now }).onConflict("taskId").ignore().execute("run");
    return (result as { affectedRows: number }).affectedRows === 1;
  }

  /** Runs on every task update that leaves `blocked` or any other status. */
  async endBlockedEpisode(taskId: string): Promise<void> {
    await atomically(this.db(), function* (tx) {
      yield* tx.run(END_EPISODE, [taskId]);
    });
  }
}
