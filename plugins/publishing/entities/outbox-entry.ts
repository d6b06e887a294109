import { defineEntity, p, type EntityRow } from "@muster/plugin";

export const OUTBOX_STATUSES = ["approved", "publishing", "published", "failed", "unknown"] as const;

/**
 * One platform's share of an approved publish (`publishing_outbox`): approved → publishing →
 * published | failed | unknown. `(approvalId, platform)` is unique, so executing one approval
 * twice queues nothing new.
 */
export const OutboxEntry = defineEntity({
  name: "OutboxEntry",
  tableName: "publishing_outbox",
  properties: {
    id: p.string().primary(),
    approvalId: p.string(),
    draftId: p.string().nullable(),
    platform: p.string(),
    title: p.string(),
    text: p.text(),
    /** JSON array of `{ url }`. */
    media: p.text(),
    status: p.enum([...OUTBOX_STATUSES]),
    /** When the entry may next be attempted (the schedule, or a retry's backoff). */
    dueAt: p.string(),
    attempts: p.integer().default(0),
    postId: p.string().nullable(),
    postUrl: p.string().nullable(),
    /** The last failure, redacted of secret values. */
    error: p.text().nullable(),
    decidedBy: p.string(),
    createdAt: p.string(),
    updatedAt: p.string(),
    /** The instance sending it while `publishing` (`hostTokens.instances`); not part of the API's record. */
    owner: p.string().nullable(),
  },
  uniques: [{ name: "publishing_outbox_approval_platform", properties: ["approvalId", "platform"] }],
  indexes: [{ name: "publishing_outbox_due", properties: ["status", "dueAt"] }],
});

export type OutboxEntryRow = EntityRow<typeof OutboxEntry>;
