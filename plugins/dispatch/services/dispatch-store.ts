import { atomically, defineStore, type Database, type EntityStore } from "@muster/plugin";
import { Dispatch, type DispatchRow, type DispatchStatus } from "../entities/dispatch.ts";

/** Newest first; text and number columns only, so rows need no mapping. */
const dispatches = defineStore(Dispatch, { orderBy: [{ createdAt: "desc" }, { id: "desc" }], mapRows: false });

const DISPATCH_COLUMNS = ["id", "taskId", "agentId", "status", "previousStatus", "sessionKey", "output", "error", "inputTokens", "outputTokens", "createdAt", "finishedAt", "taskSettledAt"] as const satisfies readonly (keyof DispatchRow)[];

// The statements of the start step, in SQL both engines read (quoted camelCase names, `?`).
const RUNNING_OF_TASK = `SELECT id FROM dispatch_dispatches WHERE "taskId" = ? AND status = 'running' LIMIT 1`;
const INSERT = `INSERT INTO dispatch_dispatches (${DISPATCH_COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES (${DISPATCH_COLUMNS.map(() => "?").join(", ")})`;
/**
 * The dispatch records over the store kit, on SQLite and PostgreSQL; ending one is the kit's
 * `transition` (only a running dispatch ends, once). Starting one reads and writes in one
 * step, so it is an atomic step (`atomically`, see `start`); the start-up sweep is one
 * conditional bulk update.
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
   * that blocked it otherwise. One atomic step: on SQLite one synchronous transaction, which
   * nothing interleaves with; on PostgreSQL (READ COMMITTED) two transactions would each find
   * no running dispatch before the other's insert commits, so the task's starts first queue on
   * a transaction advisory lock held until commit, and the check runs after it.
   */
  start(row: DispatchRow): Promise<{ started: true } | { started: false; runningId: string }> {
    const db = this.db();
    return atomically(db, function* (tx) {
      yield* tx.lock(`dispatch_dispatches:${row.taskId}`);
      const running = yield* tx.get<{ id: string }>(RUNNING_OF_TASK, [row.taskId]);
      if (running) return { started: false as const, runningId: running.id };
      yield* tx.run(INSERT, DISPATCH_COLUMNS.map((c) => row[c]));
      return { started: true as const };
    });
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
   * returns them. One conditional bulk update returning the rows it changed, so the rows
   * returned are exactly the rows marked.
   */
  interruptRunning(reason: string, now: string): Promise<DispatchRow[]> {
    return this.rows.qb().update({ status: "interrupted", error: reason, finishedAt: now }).where({ status: "running" }).returning([...DISPATCH_COLUMNS]).execute<DispatchRow[]>("all");
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
