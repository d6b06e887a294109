import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** The draft statuses of DESIGN §14.10; approved, scheduled, publishing and published are reached only through the gate. */
export const DRAFT_STATUSES = ["draft", "review", "approved", "scheduled", "publishing", "published", "failed", "rejected"] as const;

/** A content draft (`publishing_drafts`): the one declaration of the table (migrations.ts creates it). */
export const ContentDraft = defineEntity({
  name: "ContentDraft",
  tableName: "publishing_drafts",
  properties: {
    id: p.string().primary(),
    title: p.string(),
    text: p.text(),
    /** JSON array of platform ids. */
    platforms: p.text(),
    /** JSON array of `{ url }`. */
    media: p.text(),
    status: p.enum([...DRAFT_STATUSES]),
    scheduledAt: p.string().nullable(),
    /** JSON array of per-platform outcomes, from the outbox. */
    results: p.text(),
    /** The publish approval this draft waits on or was published by. */
    approvalId: p.string().nullable(),
    createdAt: p.string(),
    updatedAt: p.string(),
  },
  indexes: [{ name: "publishing_drafts_updated", properties: ["updatedAt"] }],
});

export type ContentDraftRow = EntityRow<typeof ContentDraft>;
