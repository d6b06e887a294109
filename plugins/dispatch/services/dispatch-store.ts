import { atomically, defineStore, type Database, type EntityStore } from "@muster/plugin";
import { Dispatch, type DispatchStatus } from "../entities/dispatch.ts";
import type { DispatchRecord } from "../tokens.ts";

/** The columns a dispatch is read with: every one but the instance running it (`owner`), which the API never shows. */
const DISPATCH_COLUMNS = ["id", "taskId", "agentId", "status", "previousStatus", "sessionKey", "output", "error", "inputTokens", "outputTokens", "createdAt", "finishedAt", "taskSettledAt"] as const satisfies readonly (keyof DispatchRecord)[];

/** Newest first; text and number columns only, so rows need no mapping. */
const dispatches = defineStore(Dispatch, { fields: DISPATCH_COLUMNS, orderBy: [{ createdAt: "desc" }, { id: "desc" }], mapRows: false });

// The statements of the start step, in SQL both engines read (quoted camelCase names, `?`).
const RUNNING_OF_TASK = `SELECT id FROM dispatch_dispatches WHERE "taskId" = ? AND status = 'running' LIMIT 1`;
const INSERT = `INSERT INTO dispatch_dispatches (${DISPATCH_COLUMNS.map((c) => `"${c}"`).join(", ")}, owner) VALUES (${DISPATCH_COLUMNS.map(() => "?").join(", ")}, ?)`;

/** Not owned (running a dispatch, linking a review) by any instance in `live` (`hostTokens.instances.liveIds()`; empty: any), or by none recorded. */
export const ownedByNoneOf = (live: readonly string[]) => (live.length ? { $or: [{ owner: null }, { owner: { $nin: [...live] } }] } : {});
/**
 * The dispatch records over the store kit, on SQLite and PostgreSQL; ending one is the kit's
 * `transition` (only a running dispatch ends, once). Starting one reads and writes in one
 * step, so it is an atomic step (`atomically`, see `start`); the start-up sweep is one
 * conditional bulk update.
 */
export class DispatchStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof Dispatch>;
  /** This instance's id, recorded on the dispatches it starts (team mode); null in a store without one. */
  private readonly owner: () => string | null;
  constructor(db: () => Database, owner: () => string | null = () => null) {
    this.db = db;
    this.rows = dispatches.on(db);
    this.owner = owner;
  }

  /**
   * Inserts a `running` dispatch unless the task already has one; returns the running one
   * that blocked it otherwise. One atomic step: on SQLite one synchronous transaction, which
   * nothing interleaves with; on PostgreSQL (READ COMMITTED) two transactions would each find
   * no running dispatch before the other's insert commits, so the task's starts first queue on
   * a transaction advisory lock held until commit, and the check runs after it.
   */
  start(row: DispatchRecord): Promise<{ started: true } | { started: false; runningId: string }> {
    const db = this.db();
    const owner = this.owner();
    return atomically(db, function* (tx) {
      yield* tx.lock(`dispatch_dispatches:${row.taskId}`);
      const running = yield* tx.get<{ id: string }>(RUNNING_OF_TASK, [row.taskId]);
      if (running) return { started: false as const, runningId: running.id };
      yield* tx.run(INSERT, [...DISPATCH_COLUMNS.map((c) => row[c]), owner]);
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
   * Every dispatch a previous or dead process left running, marked `interrupted` with the
   * reason: those no instance in `live` runs (`hostTokens.instances.liveIds()`; empty: every
   * one). Returns them. One conditional bulk update returning the rows it changed, so the rows
   * returned are exactly the rows marked.
   */
  interruptRunning(reason: string, now: string, live: readonly string[] = []): Promise<DispatchRecord[]> {
    return this.rows.qb().update({ status: "interrupted", error: reason, finishedAt: now }).where({ status: "running", ...ownedByNoneOf(live) }).returning([...DISPATCH_COLUMNS]).execute<DispatchRecord[]>("all");
  }

  /** Records that the ended dispatch's task was moved (or needed no move). */
  async markSettled(id: string, now: string): Promise<void> {
    await this.rows.transition(id, { from: { taskSettledAt: null }, set: { taskSettledAt: now } });
  }

  /**
   * Ended dispatches whose task was not moved yet: a process was killed between the two steps.
   * Those a live instance in `live` ran are left to it (it is between the two steps now).
   */
  unsettled(live: readonly string[] = []): Promise<DispatchRecord[]> {
    return this.rows.list({ where: { taskSettledAt: null, status: { $ne: "running" }, ...ownedByNoneOf(live) }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  }

  /** Whether another dispatch of the task is running (then the task is that one's to move). */
  async hasOtherRunning(taskId: string, exceptId: string): Promise<boolean> {
    return (await this.rows.find({ taskId, status: "running", id: { $ne: exceptId } })) !== null;
  }

  async get(id: string): Promise<DispatchRecord | undefined> {
    return (await this.rows.get(id)) ?? undefined;
  }

  /** Newest first. */
  list(limit: number): Promise<DispatchRecord[]> {
    return this.rows.list({ limit });
  }
}
