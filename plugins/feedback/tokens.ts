import { token } from "@muster/plugin";
import type { FeedbackRecord, NewFeedback } from "./services/feedback-service.ts";
import type { FeedbackType } from "./services/learnings-file.ts";

export type { FeedbackRecord, FeedbackType, NewFeedback };

/** Feedback to agents: stored and appended to the agent's learnings file. */
export interface FeedbackLog {
  /** Stores the entry, appends it to the learnings file, then publishes `feedback.entry.created`. */
  create(input: NewFeedback): Promise<FeedbackRecord>;
  list(query: { agent?: string; type?: FeedbackType; limit: number }): Promise<FeedbackRecord[]>;
}

/** Feedback entries. Depend on the `feedback` plugin to use it. */
export const FEEDBACK = token<FeedbackLog>("feedback.service");
