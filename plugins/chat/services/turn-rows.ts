import { atomically, defineStore, type Database, type EntityStore } from "@muster/plugin";
import { ChatTurn } from "../entities/chat-turn.ts";
import type { ChatTurnRecord } from "./active-turn.ts";

/** Woken with `abort` (an owner has an abort request to read) or `done` (an owner wrote how an aborted turn ended). */
export const TURNS_CHANNEL = "chat_turns";

/** Oldest first, as the in-memory list. */
const turns = defineStore(ChatTurn, { orderBy: [{ startedAt: "asc" }, { id: "asc" }], mapRows: false });

// Two steps are a conditional change plus the NOTIFY that must be delivered at their commit
// (atomically, docs/store-kit.md). An abort request and the owner's end of the turn race on one
// row: PostgreSQL's row lock orders them, and each re-reads the row's condition after the
// other's commit, so either the turn ended first (its row is gone: 404) or the request was
// recorded first (the owner writes the outcome instead of deleting the row).
const REQUEST_ABORT = `UPDATE chat_turns SET "abortRequestedAt" = COALESCE("abortRequestedAt", ?) WHERE id = ? AND finished IS NULL RETURNING owner, "sessionId"`;
const DELETE_UNLESS_ASKED = `DELETE FROM chat_turns WHERE id = ? AND "abortRequestedAt" IS NULL`;
const WRITE_FINISHED = `UPDATE chat_turns SET finished = ?, "finishedAt" = ? WHERE id = ?`;
const NOTIFY = `SELECT pg_notify(?, ?)`;

/** Team mode's `chat_turns` (entities/chat-turn.ts): the running turns of every instance. */
export class TurnRows {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof ChatTurn>;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = turns.on(db);
  }

  async insert(record: ChatTurnRecord, owner: string): Promise<void> {
    await this.rows.insert({ id: record.id, sessionId: record.sessionId, owner, startedAt: record.startedAt, record: JSON.stringify(record), abortRequestedAt: null, finished: null, finishedAt: null });
  }

  async update(record: ChatTurnRecord): Promise<void> {
    await this.rows.update(record.id, { record: JSON.stringify(record) });
  }

  /** The turn ended on its owner: its row goes, unless an abort waits for how it ended; then that is written and the waiter woken. */
  finish(id: string, finished: unknown, at: string): Promise<void> {
    const text = JSON.stringify(finished);
    return atomically(this.db(), function* (tx) {
      if ((yield* tx.run(DELETE_UNLESS_ASKED, [id])).changes === 1) return;
      if ((yield* tx.run(WRITE_FINISHED, [text, at, id])).changes === 1) yield* tx.get(NOTIFY, [TURNS_CHANNEL, "done"]);
    });
  }

  /** Records an abort request for a turn still running and wakes its owner; null when no such turn runs. */
  requestAbort(id: string, at: string): Promise<{ owner: string; sessionId: string } | null> {
    return atomically(this.db(), function* (tx) {
      const row = yield* tx.get<{ owner: string; sessionId: string }>(REQUEST_ABORT, [at, id]);
      if (row) yield* tx.get(NOTIFY, [TURNS_CHANNEL, "abort"]);
      return row ?? null;
    });
  }

  /** The running turns of `owners`, oldest first. */
  async running(owners: string[], sessionId?: string): Promise<ChatTurnRecord[]> {
    if (owners.length === 0) return [];
    const rows = await this.rows.list({ where: { finished: null, owner: { $in: owners }, ...(sessionId === undefined ? {} : { sessionId }) }, fields: ["record"] });
    return rows.map((row) => JSON.parse(row.record) as ChatTurnRecord);
  }

  /** How an aborted turn ended (JSON), null while it runs; undefined when its row is gone. */
  async finished(id: string): Promise<string | null | undefined> {
    const row = await this.rows.get(id);
    return row ? row.finished : undefined;
  }

  /** The ids of `owner`'s turns that another instance asked to abort. */
  async abortsFor(owner: string): Promise<string[]> {
    return (await this.rows.list({ where: { owner, abortRequestedAt: { $ne: null }, finished: null }, fields: ["id"] })).map((row) => row.id);
  }

  /** Removes the rows of instances no longer alive and the outcomes kept since before `keptSince`. */
  async sweep(live: string[], keptSince: string): Promise<void> {
    await this.rows.qb().delete().where({ $or: [{ owner: { $nin: live } }, { finishedAt: { $lt: keptSince } }] }).execute("run");
  }
}
