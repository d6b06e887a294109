// Team mode (issue 25): a chat turn runs on the instance that started it, but the next request
// of its client may reach any instance. So every instance keeps its running turns in
// `chat_turns` (turn-rows.ts) as well as in memory: a list reads the other live instances'
// rows, and an abort of a turn another instance runs is a request in its row that the owner,
// woken by NOTIFY, carries out; it writes how the turn ended into the row for the aborting
// instance to answer with. On SQLite none of this exists (one process: ChatTurns' memory).
import { answerAfter, hostErrors, type Database, type DatabaseListener, type Instances, type Logger } from "@muster/plugin";
import { chatErrors } from "../errors.ts";
import type { ActiveTurn, ChatTurnRecord } from "./active-turn.ts";
import type { ChatTurnFinished } from "./chat-turns.ts";
import { TURNS_CHANNEL, TurnRows } from "./turn-rows.ts";

/** How often a waiting abort re-reads its row and checks that the owner lives (besides the NOTIFY that wakes it). */
const POLL_MS = 1_000;
/** How long an outcome written for an aborting instance is kept (it reads it within `abortConfirmMs`). */
const KEEP_FINISHED_MS = 60_000;
/** How long a stopping instance waits for its turns' last rows to be written. */
const STOP_WRITES_MS = 2_000;

export interface TeamTurnsDeps {
  db: Database;
  instances: Instances;
  logger: Logger;
  /** `abortConfirmMs` of the chat configuration. */
  confirmMs: number;
}

/** The deployment-wide side of ChatTurns, on PostgreSQL with several instances. */
export class TeamTurns {
  private readonly rows: TurnRows;
  private readonly deps: TeamTurnsDeps;
  /** Each turn's row writes, in order (insert, changes, end). */
  private readonly writes = new Map<string, Promise<void>>();
  /** Aborts waiting for an owner's answer, woken by a `done` NOTIFY. */
  private readonly wakers = new Set<() => void>();
  private listener: DatabaseListener | undefined;
  private stopSweep: (() => void) | undefined;
  private stopped = false;

  constructor(deps: TeamTurnsDeps) {
    this.deps = deps;
    this.rows = new TurnRows(() => deps.db);
  }

  /** Listens for abort requests (carried out with `abortHere`) and answers; sweeps the rows of dead instances every 2 s. */
  async start(abortHere: (id: string) => void): Promise<void> {
    const { db, instances, logger } = this.deps;
    this.listener = await db.listen!(TURNS_CHANNEL, (payload) => {
      // "" after a (re)connect: what was notified meanwhile is read now.
      if (payload !== "done") void this.takeAborts(abortHere);
      if (payload !== "abort") for (const wake of [...this.wakers]) wake();
    });
    this.stopSweep = instances.everyWhileShared("chat turns of stopped instances", async () => {
      await this.rows.sweep(await instances.liveIds(), new Date(Date.now() - KEEP_FINISHED_MS).toISOString());
    });
    logger.debug("chat turns are shared with the other instances");
  }

  /** At shutdown, after this instance's turns ended: their last rows written (bounded), no more listening; waiting aborts answer 503. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopSweep?.();
    for (const wake of [...this.wakers]) wake();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.writes.values()]), new Promise((resolve) => (timer = setTimeout(resolve, STOP_WRITES_MS)))]);
    clearTimeout(timer);
    await this.listener?.close();
  }

  started(turn: ActiveTurn): void {
    const record = turn.snapshot();
    this.write(record.id, () => this.rows.insert(record, this.deps.instances.id));
  }

  changed(turn: ActiveTurn): void {
    const record = turn.snapshot();
    this.write(record.id, () => this.rows.update(record));
  }

  ended(finished: ChatTurnFinished): void {
    const { id } = finished.turn;
    this.write(id, () => this.rows.finish(id, finished, new Date().toISOString()));
    const last = this.writes.get(id);
    void last?.finally(() => this.writes.get(id) === last && this.writes.delete(id));
  }

  /** The turns the other live instances run, oldest first. */
  async others(sessionId?: string): Promise<ChatTurnRecord[]> {
    const me = this.deps.instances.id;
    return this.rows.running((await this.deps.instances.liveIds()).filter((id) => id !== me), sessionId);
  }

  /**
   * Aborts a turn another instance runs: records the request, wakes the owner and answers how
   * the turn ended once the owner wrote it. 404 when no instance runs it, 410 when its
   * instance stopped (before or while waiting), 504 when it does not answer in time.
   */
  async abort(id: string): Promise<ChatTurnFinished> {
    const { instances, confirmMs } = this.deps;
    const asked = await this.rows.requestAbort(id, new Date().toISOString());
    if (!asked) throw chatErrors.CHAT_TURN_NOT_FOUND({ id });
    const gone = () => chatErrors.CHAT_TURN_OWNER_GONE({ id, sessionId: asked.sessionId }, { details: { sessionId: asked.sessionId } });
    const deadline = Date.now() + confirmMs;
    for (;;) {
      // Armed before the read, so an answer written just after it wakes this wait.
      const woken = this.pause(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
      const finished = await this.rows.finished(id);
      if (typeof finished === "string") return JSON.parse(finished) as ChatTurnFinished;
      // A row with a request is removed only by the sweep of a dead owner's rows.
      if (finished === undefined || !(await instances.liveIds()).includes(asked.owner)) throw gone();
      if (Date.now() >= deadline) throw chatErrors.CHAT_TURN_ABORT_TIMEOUT({ id, ms: confirmMs }, { details: { sessionId: asked.sessionId } });
      await woken;
      if (this.stopped) throw hostErrors.SERVICE_UNAVAILABLE({ reason: "Muster is shutting down" });
    }
  }

  /** This instance's turns other instances asked to abort. */
  private async takeAborts(abortHere: (id: string) => void): Promise<void> {
    try {
      for (const id of await this.rows.abortsFor(this.deps.instances.id)) abortHere(id);
    } catch (error) {
      this.deps.logger.warn({ err: error }, "abort requests for this instance's chat turns could not be read; read at the next wake-up");
    }
  }

  /** Resolves at the next `done` NOTIFY, or after `ms`. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  /**
   * Queues a write of turn `id`'s row after its earlier ones; a request that caused it answers
   * once it is stored (so the client's next request, on any instance, sees it). A failed
   * write is logged: the turn itself goes on.
   */
  private write(id: string, step: () => Promise<void>): void {
    const next = (this.writes.get(id) ?? Promise.resolve()).then(step).catch((error: unknown) => this.deps.logger.warn({ err: error, turnId: id }, "a chat turn's shared row was not written"));
    this.writes.set(id, next);
    answerAfter(() => next);
  }
}
