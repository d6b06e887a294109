import type { Database } from "@muster/plugin";
import { Dispatch, type DispatchRow, type DispatchStatus } from "../entities/dispatch.ts";

const FIELDS = Object.keys(Dispatch.meta.properties) as (keyof DispatchRow)[];

/** The dispatch records. Starting one is a single synchronous transaction: of concurrent starts for one task exactly one wins. */
export class DispatchStore {
  private readonly db: () => Database;
  constructor(db: () => Database) {
    this.db = db;
  }

  /**
   * Inserts a `running` dispatch unless the task already has one; returns the running one
   * that blocked it otherwise. One synchronous transaction on the shared connection, which
   * no other request's statement can interleave with.
   */
  start(row: DispatchRow): { started: true } | { started: false; runningId: string } {
    const sql = this.db().sql;
    return sql.transaction(() => {
      const running = sql.prepare("SELECT id FROM dispatch_dispatches WHERE taskId = ? AND status = 'running' LIMIT 1").get(row.taskId) as { id: string } | undefined;
      if (running) return { started: false as const, runningId: running.id };
      sql
        .prepare(
          `INSERT INTO dispatch_dispatches (id, taskId, agentId, status, previousStatus, sessionKey, output, error, inputTokens, outputTokens, createdAt, finishedAt, taskSettledAt)
           VALUES (@id, @taskId, @agentId, @status, @previousStatus, @sessionKey, @output, @error, @inputTokens, @outputTokens, @createdAt, @finishedAt, @taskSettledAt)`,
        )
        .run(row);
      return { started: true as const };
    })();
  }

  remove(id: string): void {
    this.db().sql.prepare("DELETE FROM dispatch_dispatches WHERE id = ?").run(id);
  }

  /** Ends a running dispatch; false when it was no longer running (ended once only). */
  finish(id: string, end: { status: Exclude<DispatchStatus, "running">; output?: string | null; error?: string | null; inputTokens?: number | null; outputTokens?: number | null }, now: string): boolean {
    const result = this.db()
      .sql.prepare(
        `UPDATE dispatch_dispatches SET status = @status, output = @output, error = @error, inputTokens = @inputTokens, outputTokens = @outputTokens, finishedAt = @now
         WHERE id = @id AND status = 'running'`,
      )
      .run({ id, status: end.status, output: end.output ?? null, error: end.error ?? null, inputTokens: end.inputTokens ?? null, outputTokens: end.outputTokens ?? null, now });
    return result.changes === 1;
  }

  /** Every dispatch a previous process left running, marked `interrupted` with the reason; returns them. */
  interruptRunning(reason: string, now: string): DispatchRow[] {
    const sql = this.db().sql;
    return sql.transaction(() => {
      const rows = sql.prepare("SELECT * FROM dispatch_dispatches WHERE status = 'running'").all() as DispatchRow[];
      sql.prepare("UPDATE dispatch_dispatches SET status = 'interrupted', error = ?, finishedAt = ? WHERE status = 'running'").run(reason, now);
      return rows.map((r) => ({ ...r, status: "interrupted" as const, error: reason, finishedAt: now }));
    })();
  }

  /** Records that the ended dispatch's task was moved (or needed no move). */
  markSettled(id: string, now: string): void {
    this.db().sql.prepare("UPDATE dispatch_dispatches SET taskSettledAt = ? WHERE id = ? AND taskSettledAt IS NULL").run(now, id);
  }

  /** Ended dispatches whose task was not moved yet: a process was killed between the two steps. */
  async unsettled(): Promise<DispatchRow[]> {
    return (await this.db()
      .em()
      .createQueryBuilder(Dispatch)
      .select(FIELDS)
      .where({ taskSettledAt: null, status: { $ne: "running" } })
      .orderBy([{ createdAt: "asc" }, { id: "asc" }])
      .execute("all", false)) as DispatchRow[];
  }

  /** Whether another dispatch of the task is running (then the task is that one's to move). */
  hasOtherRunning(taskId: string, exceptId: string): boolean {
    return this.db().sql.prepare("SELECT 1 FROM dispatch_dispatches WHERE taskId = ? AND status = 'running' AND id <> ? LIMIT 1").get(taskId, exceptId) !== undefined;
  }

  async get(id: string): Promise<DispatchRow | undefined> {
    return ((await this.db().em().createQueryBuilder(Dispatch).select(FIELDS).where({ id }).execute("get", false)) ?? undefined) as DispatchRow | undefined;
  }

  /** Newest first. */
  async list(limit: number): Promise<DispatchRow[]> {
    return (await this.db()
      .em()
      .createQueryBuilder(Dispatch)
      .select(FIELDS)
      .orderBy([{ createdAt: "desc" }, { id: "desc" }])
      .limit(limit)
      .execute("all", false)) as DispatchRow[];
  }
}
