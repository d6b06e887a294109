import { atomically, defineStore, insertionOrder, type Database, type EntityStore } from "@muster/plugin";
import { FeedbackEntry, type FeedbackRow } from "../entities/feedback-entry.ts";

/** Every column, derived once from the entity. */
const FIELDS = Object.keys(FeedbackEntry.meta.properties) as (keyof FeedbackRow)[];
/** The insert, in SQL both engines read (quoted camelCase names). */
const INSERT = `INSERT INTO feedback_entries (${FIELDS.map((f) => `"${f}"`).join(", ")}) VALUES (${FIELDS.map(() => "?").join(", ")})`;

/** Newest first; entries of the same millisecond latest-inserted first. */
const entries = defineStore(FeedbackEntry, { orderBy: [{ createdAt: "desc" }, insertionOrder("desc")] });

/** `feedback_entries`: the list over the store kit (plain rows, no entities). */
export class FeedbackStore {
  private readonly db: () => Database;
  private readonly rows: EntityStore<typeof FeedbackEntry>;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = entries.on(db);
  }

  /**
   * Inserts the row and runs `append` (the learnings-file write) as one atomic step
   * (`atomically`): the file append sits between the insert and the commit, so a failed
   * append stores nothing and a failed insert appends nothing. On SQLite the step is
   * synchronous, so no other request's statement lands inside the transaction.
   */
  async insertWhile(row: FeedbackRow, append: () => void): Promise<void> {
    await atomically(this.db(), function* (tx) {
      yield* tx.run(INSERT, FIELDS.map((f) => row[f]));
      append();
    });
  }

  /** Newest first, optionally for one agent and/or one type. */
  list(query: { agent?: string; type?: FeedbackRow["type"]; limit: number }): Promise<FeedbackRow[]> {
    return this.rows.list({ where: { ...(query.agent ? { agentId: query.agent } : {}), ...(query.type ? { type: query.type } : {}) }, limit: query.limit });
  }
}
