import { randomUUID } from "node:crypto";
import type { Database, EventBus, WorkspacePaths } from "@muster/plugin";
import { appendLearning, learningsPath, type FeedbackType, type LearningEntry } from "./learnings-file.ts";
import { FeedbackStore } from "./feedback-store.ts";
import type { FeedbackLog } from "../tokens.ts";

/** A stored feedback entry: the learning plus the workspace files it was applied to. */
export type FeedbackRecord = LearningEntry & { appliedTo: string[] };

export interface NewFeedback {
  agentId: string;
  taskId?: string | null;
  type: FeedbackType;
  content: string;
  context?: string | null;
}


/** Feedback entries: stored in SQLite and appended to the agent's learnings file. */
export class FeedbackService implements FeedbackLog {
  private readonly deps: { db: () => Database; events: EventBus; workspace: WorkspacePaths };
  private readonly store: FeedbackStore;
  constructor(deps: { db: () => Database; events: EventBus; workspace: WorkspacePaths }) {
    this.deps = deps;
    this.store = new FeedbackStore(deps.db);
  }

  /**
   * Stores the entry and appends it to the learnings file in one SQLite transaction (the
   * append runs inside it, so a failed append stores nothing), then publishes
   * `feedback.entry.created`.
   */
  async create(input: NewFeedback): Promise<FeedbackRecord> {
    const entry: LearningEntry = {
      id: randomUUID(),
      agentId: input.agentId,
      taskId: input.taskId ?? null,
      type: input.type,
      content: input.content,
      context: input.context ?? null,
      createdAt: new Date().toISOString(),
    };
    const appliedTo = [learningsPath(entry.agentId)];
    await this.store.insertWhile({ ...entry, appliedTo: JSON.stringify(appliedTo) }, () => appendLearning(this.deps.workspace, entry));
    const record: FeedbackRecord = { ...entry, appliedTo };
    this.deps.events.publish("feedback.entry.created", record, { public: true });
    return record;
  }

  /** Newest first, optionally for one agent and/or one type. */
  async list(query: { agent?: string; type?: FeedbackType; limit: number }): Promise<FeedbackRecord[]> {
    const rows = await this.store.list(query);
    return rows.map((row) => ({ ...row, appliedTo: JSON.parse(row.appliedTo) as string[] }));
  }
}
