import { ContentDraft, type ContentDraftRow } from "../entities/content-draft.ts";
import type { MediaItem } from "../platforms/platform.ts";
import type { OutboxStatus } from "./outbox-record.ts";

export type DraftStatus = ContentDraftRow["status"];

/** One platform's outcome as a draft shows it (from its outbox entry). */
export interface PublishResult {
  platform: string;
  outboxId: string;
  status: OutboxStatus;
  postId: string | null;
  postUrl: string | null;
  error: string | null;
}

/** A draft as the API returns it: the row with its JSON columns parsed. */
export type ContentDraftRecord = Omit<ContentDraftRow, "platforms" | "media" | "results"> & {
  platforms: string[];
  media: MediaItem[];
  results: PublishResult[];
};

export const DRAFT_FIELDS = Object.keys(ContentDraft.meta.properties) as (keyof ContentDraftRow)[];

export function toDraftRecord(row: ContentDraftRow): ContentDraftRecord {
  return { ...row, platforms: JSON.parse(row.platforms), media: JSON.parse(row.media), results: JSON.parse(row.results) };
}

/**
 * The changes a person may make to a draft's status by PATCH. approved, scheduled, publishing
 * and published are reached only through the publish approval and the outbox.
 */
export const MANUAL_TRANSITIONS: Record<DraftStatus, DraftStatus[]> = {
  draft: ["review"],
  review: ["draft", "rejected"],
  rejected: ["draft"],
  failed: ["draft"],
  approved: [],
  scheduled: [],
  publishing: [],
  published: [],
};

/** Statuses from which `POST /api/content/publish` may ask for an approval. */
export const PUBLISHABLE: DraftStatus[] = ["draft", "review", "failed"];

/** Whether a draft's content is fixed: it is approved or further, or an approval for it is pending. */
export const isLocked = (row: Pick<ContentDraftRow, "status" | "approvalId">): boolean =>
  ["approved", "scheduled", "publishing", "published"].includes(row.status) || (row.status === "review" && row.approvalId !== null);
