import { atomically, defineStore, insertionOrder, type Database, type EntityStore } from "@muster/plugin";
import { CouncilSession } from "../entities/council-session.ts";
import { toCouncilRecord, type CouncilOutcome, type CouncilPosition, type CouncilSessionRecord, type CouncilVote } from "./council-record.ts";

/** Newest first. */
const sessions = defineStore(CouncilSession, { orderBy: [{ createdAt: "desc" }, insertionOrder("desc")] });

/** Only a session still deliberating changes. */
const RUNNING = { status: "running" as const };

const INTERRUPTED = "Muster stopped while the council was deliberating; start a new session";

/**
 * `council_sessions` over the store kit, on SQLite and PostgreSQL. Every change only touches a
 * `running` session, so once a session has ended (completed, failed, cancelled) nothing a late
 * turn does can change it: a proposal or an end is one conditional statement (the kit's
 * `transition`); a position or a vote is appended to its JSON column in one atomic step that
 * reads the array, adds the item and writes it back (`atomically`), serialised per session so
 * that no concurrent append is lost.
 */
export class CouncilStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof CouncilSession>;
  /** This instance's id, recorded on the sessions it runs (team mode); null in a store without one. */
  private readonly owner: () => string | null;
  constructor(db: () => Database, owner: () => string | null = () => null) {
    this.db = db;
    this.rows = sessions.on(db);
    this.owner = owner;
  }

  async insert(session: CouncilSessionRecord): Promise<void> {
    const { id, topic, rounds, createdAt } = session;
    await this.rows.insert({ id, topic, agents: JSON.stringify(session.agents), rounds, status: "running", positions: "[]", votes: "[]", createdAt, owner: this.owner() });
  }

  async get(id: string): Promise<CouncilSessionRecord | undefined> {
    const row = await this.rows.get(id);
    return row ? toCouncilRecord(row) : undefined;
  }

  async list(limit: number): Promise<CouncilSessionRecord[]> {
    return (await this.rows.list({ limit })).map(toCouncilRecord);
  }

  appendPosition(id: string, position: CouncilPosition): Promise<boolean> {
    return this.append(id, "positions", position);
  }

  appendVote(id: string, vote: CouncilVote): Promise<boolean> {
    return this.append(id, "votes", vote);
  }

  async setProposal(id: string, proposal: string): Promise<boolean> {
    return (await this.rows.transition(id, { from: RUNNING, set: { proposal } })) !== null;
  }

  async complete(id: string, result: { outcome: CouncilOutcome; approvalId: string | null; memoPath: string; at: string }): Promise<boolean> {
    const { outcome, approvalId, memoPath, at } = result;
    return (await this.rows.transition(id, { from: RUNNING, set: { status: "completed", outcome, approvalId, memoPath, completedAt: at } })) !== null;
  }

  /** Ends a running session as failed or cancelled, with why. */
  async end(id: string, status: "failed" | "cancelled", error: string, at: string): Promise<boolean> {
    return (await this.rows.transition(id, { from: RUNNING, set: { status, error, completedAt: at } })) !== null;
  }

  /** Records the human's ratification once. */
  async ratify(id: string, by: string, at: string): Promise<boolean> {
    return (await this.rows.transition(id, { from: { ratifiedAt: null }, set: { ratifiedAt: at, ratifiedBy: by } })) !== null;
  }

  /**
   * Sessions a previous or dead process left running (it stopped or crashed mid-deliberation)
   * are failed: those no instance in `live` deliberates (`hostTokens.instances.liveIds()`;
   * empty: every one). Resolves to how many.
   */
  async failInterrupted(at: string, live: readonly string[] = []): Promise<number> {
    const orphaned = live.length ? { ...RUNNING, $or: [{ owner: null }, { owner: { $nin: [...live] } }] } : RUNNING;
    return (await this.rows.qb().update({ status: "failed", error: INTERRUPTED, completedAt: at }).where(orphaned).execute("run")).affectedRows;
  }

  /**
   * Appends `item` to a running session's JSON array, as one step: the read and the write
   * commit together. SQLite (which has `json_insert`, PostgreSQL has not) runs the step as one
   * synchronous transaction that nothing interleaves with; on PostgreSQL the read locks the
   * session's row (`FOR UPDATE`) until the commit, so a concurrent append waits, then reads
   * the array with this item in it; and an end committed meanwhile makes the read find no
   * running session.
   */
  private append(id: string, column: "positions" | "votes", item: unknown): Promise<boolean> {
    const db = this.db();
    // The column name is one of two literals, never input.
    const read = `SELECT ${column} AS items FROM council_sessions WHERE id = ? AND status = 'running'${db.engine === "postgresql" ? " FOR UPDATE" : ""}`;
    return atomically(db, function* (tx) {
      const row = yield* tx.get<{ items: string }>(read, [id]);
      if (!row) return false;
      const items: unknown[] = JSON.parse(row.items);
      items.push(item);
      return (yield* tx.run(`UPDATE council_sessions SET ${column} = ? WHERE id = ? AND status = 'running'`, [JSON.stringify(items), id])).changes === 1;
    });
  }
}
