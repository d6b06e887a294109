import { raw, type Database } from "@muster/plugin";
import { CouncilSession, type CouncilSessionRow } from "../entities/council-session.ts";
import { toCouncilRecord, type CouncilOutcome, type CouncilPosition, type CouncilSessionRecord, type CouncilVote } from "./council-record.ts";

const INTERRUPTED = "Muster stopped while the council was deliberating; start a new session";

/**
 * `council_sessions`. Every change is one SQL statement that only a `running` session
 * matches, so once a session has ended (completed, failed, cancelled) nothing a late turn
 * does can change it. Positions and votes are appended with `json_insert`, never read back
 * and rewritten.
 */
export class CouncilStore {
  private readonly db: () => Database;
  constructor(db: () => Database) {
    this.db = db;
  }

  insert(session: CouncilSessionRecord): void {
    this.db()
      .sql.prepare(
        `INSERT INTO council_sessions (id, topic, agents, rounds, status, positions, proposal, votes, outcome, approvalId, memoPath, error, createdAt, completedAt, ratifiedAt, ratifiedBy)
         VALUES (@id, @topic, @agents, @rounds, 'running', '[]', NULL, '[]', NULL, NULL, NULL, NULL, @createdAt, NULL, NULL, NULL)`,
      )
      .run({ id: session.id, topic: session.topic, agents: JSON.stringify(session.agents), rounds: session.rounds, createdAt: session.createdAt });
  }

  async get(id: string): Promise<CouncilSessionRecord | undefined> {
    const row = await this.db().em().createQueryBuilder(CouncilSession).select("*").where({ id }).execute<CouncilSessionRow | null>("get");
    return row ? toCouncilRecord(row) : undefined;
  }

  async list(limit: number): Promise<CouncilSessionRecord[]> {
    const rows = await this.db()
      .em()
      .createQueryBuilder(CouncilSession)
      .select("*")
      .orderBy([{ createdAt: "desc" }, { [raw("rowid")]: "desc" }])
      .limit(limit)
      .execute<CouncilSessionRow[]>("all", false);
    return rows.map(toCouncilRecord);
  }

  appendPosition(id: string, position: CouncilPosition): boolean {
    return this.append(id, "positions", position);
  }

  appendVote(id: string, vote: CouncilVote): boolean {
    return this.append(id, "votes", vote);
  }

  setProposal(id: string, proposal: string): boolean {
    return this.db().sql.prepare("UPDATE council_sessions SET proposal = ? WHERE id = ? AND status = 'running'").run(proposal, id).changes === 1;
  }

  complete(id: string, result: { outcome: CouncilOutcome; approvalId: string | null; memoPath: string; at: string }): boolean {
    return (
      this.db()
        .sql.prepare("UPDATE council_sessions SET status = 'completed', outcome = @outcome, approvalId = @approvalId, memoPath = @memoPath, completedAt = @at WHERE id = @id AND status = 'running'")
        .run({ id, ...result }).changes === 1
    );
  }

  /** Ends a running session as failed or cancelled, with why. */
  end(id: string, status: "failed" | "cancelled", error: string, at: string): boolean {
    return this.db().sql.prepare("UPDATE council_sessions SET status = ?, error = ?, completedAt = ? WHERE id = ? AND status = 'running'").run(status, error, at, id).changes === 1;
  }

  /** Records the human's ratification once. */
  ratify(id: string, by: string, at: string): boolean {
    return this.db().sql.prepare("UPDATE council_sessions SET ratifiedAt = ?, ratifiedBy = ? WHERE id = ? AND ratifiedAt IS NULL").run(at, by, id).changes === 1;
  }

  /** Sessions a previous process left running (it stopped or crashed mid-deliberation) are failed. */
  failInterrupted(at: string): number {
    return this.db().sql.prepare("UPDATE council_sessions SET status = 'failed', error = ?, completedAt = ? WHERE status = 'running'").run(INTERRUPTED, at).changes;
  }

  private append(id: string, column: "positions" | "votes", item: unknown): boolean {
    // The column name is one of two literals, never input.
    return this.db().sql.prepare(`UPDATE council_sessions SET ${column} = json_insert(${column}, '$[#]', json(?)) WHERE id = ? AND status = 'running'`).run(JSON.stringify(item), id).changes === 1;
  }
}
