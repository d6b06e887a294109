import { OutboxEntry, type OutboxEntryRow } from "../entities/outbox-entry.ts";
import type { MediaItem } from "../platforms/platform.ts";

export type OutboxStatus = OutboxEntryRow["status"];
export type OutboxEntryRecord = Omit<OutboxEntryRow, "media"> & { media: MediaItem[] };

export const OUTBOX_FIELDS = Object.keys(OutboxEntry.meta.properties) as (keyof OutboxEntryRow)[];

export function toOutboxRecord(row: OutboxEntryRow): OutboxEntryRecord {
  return { ...row, media: JSON.parse(row.media) };
}
