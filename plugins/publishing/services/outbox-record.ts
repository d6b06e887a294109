import { OutboxEntry, type OutboxEntryRow } from "../entities/outbox-entry.ts";
import type { MediaItem } from "../platforms/platform.ts";

export type OutboxStatus = OutboxEntryRow["status"];
/** A stored entry as the API gives it: the sending instance (`owner`) is the store's own business. */
export type OutboxRow = Omit<OutboxEntryRow, "owner">;
export type OutboxEntryRecord = Omit<OutboxRow, "media"> & { media: MediaItem[] };

export const OUTBOX_FIELDS = (Object.keys(OutboxEntry.meta.properties) as (keyof OutboxEntryRow)[]).filter((field): field is keyof OutboxRow => field !== "owner");

export function toOutboxRecord(row: OutboxRow): OutboxEntryRecord {
  return { ...row, media: JSON.parse(row.media) };
}
