import { defineEntity, p } from "@muster/plugin";

/** Feedback to an agent (spec: Feedback entry); `appliedTo` is a JSON array of workspace-relative paths. */
export const FeedbackEntry = defineEntity({
  name: "FeedbackEntry",
  tableName: "feedback_entries",
  properties: {
    id: p.string().primary(),
    agentId: p.string(),
    taskId: p.string().nullable(),
    type: p.string(),
    content: p.text(),
    context: p.text().nullable(),
    createdAt: p.string(),
    appliedTo: p.text(),
  },
});
