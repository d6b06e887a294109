import { defineStore, type Database, type EntityStore } from "@muster/plugin";
import { Dispatch, type DispatchRow, type DispatchStatus } from "../entities/dispatch.ts";

/** Newest first; text and number columns only, so rows need no mapping. */
const dispatches = defineStore(Dispatch, { orderBy: [{ createdAt: "desc" }, { id: "desc" }], mapRows: false });

/**
 * The dispatch records over the store kit; ending one is the kit's `transition` (only a
 * running dispatch ends, once). Starting one and the start-up sweep read and write in one
 * step, so each is one synchronous raw transaction (see `start`).
 */
export class DispatchStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof Dispatch>;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = dispatches.on(db);
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

  async remove(id: string): Promise<void> {
    await this.rows.delete(id);
  }

  /** Ends a running dispatch; false when it was no longer running (ended once only). */
  async finish(id: string, end: { status: Exclude<DispatchStatus, "running">; output?: string | null; error?: string | null; inputTokens?: number | null; outputTokens?: number | null }, now: string): Promise<boolean> {
    const set = { status: end.status, output: end.output ?? null, error: end.error ?? null, inputTokens: end.inputTokens ?? null, outputTokens: end.outputTokens ?? null, finishedAt: now };
    return (await this.rows.transition(id, { from: { status: "running" }, set })) !== null;
  }

  /**
   * Every dispatch a previous process left running, marked `interrupted` with the reason;
   * returns them. Raw: a read and a bulk update that must see the same rows, in one
   * synchronous transaction.
   */
  interruptRunning(reason: string, now: string): DispatchRow[] {
    const sql = this.db().sql;
    return sql.transaction(() => {
      const rows = sql.prepare("SELECT * FROM dispatch_dispatches WHERE status = 'running'").all() as DispatchRow[];
      sql.prepare("UPDATE dispatch_dispatches SET status = 'interrupted', error = ?, finishedAt = ? WHERE status = 'running'").run(reason, now);
      return rows.map((r) => ({ ...r, status: "interrupted" as const, error: reason, finishedAt: now }));
    })();
  }

  /** Records that the ended dispatch's task was moved (or needed no move). */
  async markSettled(id: string, now: string): Promise<void> {
    await this.rows.transition(id, { from: { taskSettledAt: null }, set: { taskSettledAt: now } });
  }

  /** Ended dispatches whose task was not moved yet: a process was killed between the two steps. */
  unsettled(): Promise<DispatchRow[]> {
    return this.rows.list({ where: { taskSettledAt: null, status: { $ne: "running" } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  }

  /** Whether another dispatch of the task is running (then the task is that one's to move). */
  async hasOtherRunning(taskId: string, exceptId: string): Promise<boolean> {
    return (await this.rows.find({ taskId, status: "running", id: { $ne: exceptId } })) !== null;
  }

  async get(id: string): Promise<DispatchRow | undefined> {
    return (await this.rows.get(id)) ?? undefined;
  }

  /** Newest first. */
  list(limit: number): Promise<DispatchRow[]> {
    return this.rows.list({ limit });
  }
}
