import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** The kinds of feedback (spec: Feedback entry `type`). */
export const FEEDBACK_TYPES = ["correction", "praise", "pattern", "rule"] as const;

/**
 * Feedback to an agent (spec: Feedback entry): the one declaration of `feedback_entries`
 * (migrations.ts creates it; a test checks they agree). `appliedTo` is a JSON array of
 * workspace-relative paths.
 */
export const FeedbackEntry = defineEntity({
  name: "FeedbackEntry",
  tableName: "feedback_entries",
  properties: {
    id: p.string().primary(),
    agentId: p.string(),
    taskId: p.string().nullable(),
    type: p.enum(FEEDBACK_TYPES),
    content: p.text(),
    context: p.text().nullable(),
    createdAt: p.string(),
    appliedTo: p.text(),
  },
  // The migration creates both with `createdAt DESC`; SQLite reports no sort order when the
  // schema is compared, so they are declared by their columns only.
  indexes: [
    { name: "feedback_by_time", properties: ["createdAt"] },
    { name: "feedback_by_agent", properties: ["agentId", "createdAt"] },
  ],
});

/** A stored entry as the query builder returns it (`appliedTo` as JSON text). */
export type FeedbackRow = EntityRow<typeof FeedbackEntry>;
