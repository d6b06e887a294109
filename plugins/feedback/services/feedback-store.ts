import { defineStore, insertionOrder, type Database, type EntityStore } from "@muster/plugin";
import { FeedbackEntry, type FeedbackRow } from "../entities/feedback-entry.ts";

/** Every column, derived once from the entity. */
const FIELDS = Object.keys(FeedbackEntry.meta.properties) as (keyof FeedbackRow)[];

/** Newest first; entries of the same millisecond latest-inserted first. */
const entries = defineStore(FeedbackEntry, { orderBy: [{ createdAt: "desc" }, insertionOrder("desc")] });

/** `feedback_entries`: the list over the store kit (plain rows, no entities). */
export class FeedbackStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof FeedbackEntry>;
  private insertStatement?: ReturnType<Database["sql"]["prepare"]>;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = entries.on(db);
  }

  /**
   * Inserts the row and runs `append` (the learnings-file write) in one synchronous raw SQLite
   * transaction: the file append sits between the insert and the commit, which no awaited
   * ORM write can do without letting other requests' statements into the transaction, so a
   * failed append stores nothing and a failed insert appends nothing.
   */
  insertWhile(row: FeedbackRow, append: () => void): void {
    const sql = this.db().sql;
    this.insertStatement ??= sql.prepare(`INSERT INTO feedback_entries (${FIELDS.join(", ")}) VALUES (${FIELDS.map((f) => `@${f}`).join(", ")})`);
    const insert = this.insertStatement;
    sql.transaction(() => {
      insert.run(row);
      append();
    })();
  }

  /** Newest first, optionally for one agent and/or one type. */
  list(query: { agent?: string; type?: FeedbackRow["type"]; limit: number }): Promise<FeedbackRow[]> {
    return this.rows.list({ where: { ...(query.agent ? { agentId: query.agent } : {}), ...(query.type ? { type: query.type } : {}) }, limit: query.limit });
  }
}
