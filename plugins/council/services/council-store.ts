import { defineStore, insertionOrder, type Database, type EntityStore } from "@muster/plugin";
import { CouncilSession } from "../entities/council-session.ts";
import { toCouncilRecord, type CouncilOutcome, type CouncilPosition, type CouncilSessionRecord, type CouncilVote } from "./council-record.ts";

/** Newest first. */
const sessions = defineStore(CouncilSession, { orderBy: [{ createdAt: "desc" }, insertionOrder("desc")] });

/** Only a session still deliberating changes. */
const RUNNING = { status: "running" as const };

const INTERRUPTED = "Muster stopped while the council was deliberating; start a new session";

/**
 * `council_sessions` over the store kit. Every change is one conditional statement (the
 * kit's `transition`) that only a `running` session matches, so once a session has ended
 * (completed, failed, cancelled) nothing a late turn does can change it. Positions and votes
 * are appended in SQL, never read back and rewritten.
 */
export class CouncilStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof CouncilSession>;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = sessions.on(db);
  }

  async insert(session: CouncilSessionRecord): Promise<void> {
    const { id, topic, rounds, createdAt } = session;
    await this.rows.insert({ id, topic, agents: JSON.stringify(session.agents), rounds, status: "running", positions: "[]", votes: "[]", createdAt });
  }

  async get(id: string): Promise<CouncilSessionRecord | undefined> {
    const row = await this.rows.get(id);
    return row ? toCouncilRecord(row) : undefined;
  }

  async list(limit: number): Promise<CouncilSessionRecord[]> {
    return (await this.rows.list({ limit })).map(toCouncilRecord);
  }

  appendPosition(id: string, position: CouncilPosition): boolean {
    return this.append(id, "positions", position);
  }

  appendVote(id: string, vote: CouncilVote): boolean {
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
   * Sessions a previous process left running (it stopped or crashed mid-deliberation) are
   * failed. Raw SQL: a bulk update whose count the start hook reads synchronously.
   */
  failInterrupted(at: string): number {
    return this.db().sql.prepare("UPDATE council_sessions SET status = 'failed', error = ?, completedAt = ? WHERE status = 'running'").run(INTERRUPTED, at).changes;
  }

  /**
   * Raw SQL: the item is appended inside the statement (`json_insert`, SQLite's JSON
   * function), so concurrent appends never read and rewrite the array, and only while the
   * session runs.
   */
  private append(id: string, column: "positions" | "votes", item: unknown): boolean {
    // The column name is one of two literals, never input.
    return this.db().sql.prepare(`UPDATE council_sessions SET ${column} = json_insert(${column}, '$[#]', json(?)) WHERE id = ? AND status = 'running'`).run(JSON.stringify(item), id).changes === 1;
  }
}
