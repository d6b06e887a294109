import { randomUUID } from "node:crypto";
import { defineStore, type Database, type EntityStore } from "@muster/plugin";
import { TaskReview, type TaskReviewRow } from "../entities/task-review.ts";

const reviews = defineStore(TaskReview, { mapRows: false });

/**
 * Task review records and blocked episodes. Plain reads and writes go over the store kit.
 * Each conditional change is one raw statement or one synchronous raw transaction (a check
 * and a write no other request can come between); the checks that run inside every task
 * write (`hasPending`, the blocked episode's end) are synchronous prepared statements, since
 * the task-write hooks that call them are.
 */
export class ReviewStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof TaskReview>;
  /** Statements that run on every task write, prepared once (preparing costs more than running them). */
  private readonly hot = new Map<string, ReturnType<Database["sql"]["prepare"]>>();
  constructor(db: () => Database) {
    this.db = db;
    this.rows = reviews.on(db);
  }

  private prepared(text: string) {
    let statement = this.hot.get(text);
    if (!statement) this.hot.set(text, (statement = this.db().sql.prepare(text)));
    return statement;
  }

  /** Opens a pending review for the task unless one is pending already (then null). */
  open(taskId: string, now: string): TaskReviewRow | null {
    const sql = this.db().sql;
    return sql.transaction(() => {
      if (sql.prepare("SELECT 1 FROM dispatch_task_reviews WHERE taskId = ? AND status = 'pending'").get(taskId)) return null;
      const row: TaskReviewRow = { id: randomUUID(), taskId, approvalId: null, status: "pending", createdAt: now, resolvedAt: null };
      sql.prepare("INSERT INTO dispatch_task_reviews (id, taskId, approvalId, status, createdAt, resolvedAt) VALUES (@id, @taskId, @approvalId, @status, @createdAt, @resolvedAt)").run(row);
      return row;
    })();
  }

  async attachApproval(id: string, approvalId: string): Promise<void> {
    await this.rows.update(id, { approvalId });
  }

  /** Forgets a review whose approval could not be created. */
  async discard(id: string): Promise<void> {
    await this.rows.qb().delete().where({ id, status: "pending" }).execute("run");
  }

  /** Decides the pending review of an approval; the row, or null when it was not pending. */
  resolve(approvalId: string, status: "approved" | "rejected", now: string): TaskReviewRow | null {
    const sql = this.db().sql;
    return sql.transaction(() => {
      const row = sql.prepare("SELECT * FROM dispatch_task_reviews WHERE approvalId = ? AND status = 'pending'").get(approvalId) as TaskReviewRow | undefined;
      if (!row) return null;
      sql.prepare("UPDATE dispatch_task_reviews SET status = ?, resolvedAt = ? WHERE id = ?").run(status, now, row.id);
      return { ...row, status, resolvedAt: now };
    })();
  }

  /** Pending reviews never linked to their approval (a kill during the approval's creation). */
  unlinked(): Promise<TaskReviewRow[]> {
    return this.rows.list({ where: { status: "pending", approvalId: null } });
  }

  hasPending(taskId: string): boolean {
    return this.prepared("SELECT 1 FROM dispatch_task_reviews WHERE taskId = ? AND status = 'pending'").get(taskId) !== undefined;
  }

  /** Starts a blocked episode; false when the task's current episode was already escalated. */
  startBlockedEpisode(taskId: string, now: string): boolean {
    return this.db().sql.prepare("INSERT OR IGNORE INTO dispatch_blocked_episodes (taskId, notifiedAt) VALUES (?, ?)").run(taskId, now).changes === 1;
  }

  endBlockedEpisode(taskId: string): void {
    this.prepared("DELETE FROM dispatch_blocked_episodes WHERE taskId = ?").run(taskId);
  }
}
