import { randomUUID } from "node:crypto";
import type { Database, EventBus, WorkspacePaths } from "@muster/plugin";
import { appendLearning, type FeedbackType, type LearningEntry } from "./learnings-file.ts";

/** A stored feedback entry: the learning plus the workspace files it was applied to. */
export interface FeedbackRecord extends LearningEntry {
  appliedTo: string[];
}

export interface NewFeedback {
  agentId: string;
  taskId?: string | null;
  type: FeedbackType;
  content: string;
  context?: string | null;
}

type Row = Omit<FeedbackRecord, "appliedTo"> & { appliedTo: string };
const fromRow = (row: Row): FeedbackRecord => ({ ...row, appliedTo: JSON.parse(row.appliedTo) as string[] });

/** Feedback entries: stored in SQLite and appended to the agent's learnings file. */
export class FeedbackService {
  private readonly deps: { db: () => Database; events: EventBus; workspace: WorkspacePaths };
  constructor(deps: { db: () => Database; events: EventBus; workspace: WorkspacePaths }) {
    this.deps = deps;
  }

  /**
   * Stores the entry and appends it to the learnings file in one SQLite transaction (the
   * append runs inside it, so a failed append stores nothing), then publishes
   * `feedback.entry.created`.
   */
  create(input: NewFeedback): FeedbackRecord {
    const entry = {
      id: randomUUID(),
      agentId: input.agentId,
      taskId: input.taskId ?? null,
      type: input.type,
      content: input.content,
      context: input.context ?? null,
      createdAt: new Date().toISOString(),
    };
    const sql = this.deps.db().sql;
    const record = sql.transaction((): FeedbackRecord => {
      const insert = sql.prepare(
        `INSERT INTO feedback_entries (id, agentId, taskId, type, content, context, createdAt, appliedTo)
         VALUES (@id, @agentId, @taskId, @type, @content, @context, @createdAt, @appliedTo)`,
      );
      insert.run({ ...entry, appliedTo: "[]" });
      const written = appendLearning(this.deps.workspace, entry);
      const appliedTo = [written];
      sql.prepare("UPDATE feedback_entries SET appliedTo = ? WHERE id = ?").run(JSON.stringify(appliedTo), entry.id);
      return { ...entry, appliedTo };
    })();
    this.deps.events.publish("feedback.entry.created", record, { public: true });
    return record;
  }

  /** Newest first, optionally for one agent and/or one type. */
  list(query: { agent?: string; type?: FeedbackType; limit: number }): FeedbackRecord[] {
    const where: string[] = [];
    if (query.agent) where.push("agentId = @agent");
    if (query.type) where.push("type = @type");
    const rows = this.deps
      .db()
      .sql.prepare(
        `SELECT id, agentId, taskId, type, content, context, createdAt, appliedTo FROM feedback_entries
         ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY createdAt DESC, rowid DESC LIMIT @limit`,
      )
      .all({ agent: query.agent, type: query.type, limit: query.limit }) as Row[];
    return rows.map(fromRow);
  }
}
