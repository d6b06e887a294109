import { z, schemas } from "@muster/plugin";
import { FEEDBACK_TYPES } from "../entities/feedback-entry.ts";

/** Agent ids become file names (`<agentId>-learnings.md`): letters, digits, `_` and `-` only. */
export const agentIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "must be 1-64 letters, digits, _ or - (starting with a letter or digit)");

/** Free text without control characters other than tab and newlines. */
const text = (max: number) =>
  z.string().max(max).regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, "must not contain control characters");

export const feedbackEntrySchema = z.object({
  id: z.string(),
  agentId: z.string(),
  taskId: z.string().nullable(),
  type: z.enum(FEEDBACK_TYPES),
  content: z.string(),
  context: z.string().nullable(),
  createdAt: z.string(),
  appliedTo: z.array(z.string()).describe("Workspace-relative files the feedback was appended to"),
});

export const createFeedbackBody = z.strictObject({
  agentId: agentIdSchema,
  taskId: schemas.id.nullable().optional(),
  type: z.enum(FEEDBACK_TYPES),
  content: text(20_000).refine((v) => v.trim().length > 0, "must not be empty"),
  context: text(5_000).nullable().optional(),
});

export const listFeedbackQuery = z.strictObject({
  agent: agentIdSchema.optional(),
  type: z.enum(FEEDBACK_TYPES).optional(),
  limit: schemas.limit(50, 500),
});
