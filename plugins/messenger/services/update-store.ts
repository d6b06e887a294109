import { defineStore, type Database, type EntityStore } from "@muster/plugin";
import { MediaFile, type MediaFileRow } from "../entities/media-file.ts";
import { SeenUpdate } from "../entities/seen-update.ts";
import type { UpdateKind } from "./update-kind.ts";

const seenUpdates = defineStore(SeenUpdate, { key: "updateId" });
const media = defineStore(MediaFile);

/**
 * `messenger_seen_updates` and `messenger_media`: plain writes over the store kit. Marking an
 * update seen is one synchronous raw transaction (the check against the retained window,
 * the insert and the trim), so two deliveries of one update id race to exactly one winner.
 */
export class UpdateStore {
  private readonly db: () => Database;
  private readonly maxSeen: number;
  private readonly seen: EntityStore<typeof SeenUpdate, "updateId">;
  private readonly media: EntityStore<typeof MediaFile>;
  constructor(db: () => Database, maxSeen: number) {
    this.db = db;
    this.maxSeen = maxSeen;
    this.seen = seenUpdates.on(db);
    this.media = media.on(db);
  }

  /**
   * Records `updateId` as seen; false when it was seen before. Once the table is full, ids
   * older than the oldest one kept count as seen too (Telegram's ids only grow), so trimming
   * the table never lets an old update be replayed.
   */
  markSeen(updateId: number, now: string, note: { kind: UpdateKind; ignored: boolean }): boolean {
    const { sql } = this.db();
    return sql.transaction(() => {
      const kept = sql.prepare("SELECT count(*) AS n, min(updateId) AS oldest FROM messenger_seen_updates").get() as { n: number; oldest: number | null };
      if (kept.n >= this.maxSeen && kept.oldest !== null && updateId < kept.oldest) return false;
      if (sql.prepare("INSERT INTO messenger_seen_updates (updateId, receivedAt, kind, ignored) VALUES (?, ?, ?, ?) ON CONFLICT (updateId) DO NOTHING").run(updateId, now, note.kind, note.ignored ? 1 : 0).changes === 0) return false;
      const excess = kept.n + 1 - this.maxSeen;
      if (excess > 0) sql.prepare("DELETE FROM messenger_seen_updates WHERE updateId IN (SELECT updateId FROM messenger_seen_updates ORDER BY updateId LIMIT ?)").run(excess);
      return true;
    })();
  }

  /** Forgets an update whose handling failed unexpectedly, so Telegram's redelivery is handled (deciding is idempotent: a second decision is refused). */
  async forget(updateId: number): Promise<void> {
    await this.seen.delete(updateId);
  }

  addMedia(row: MediaFileRow): Promise<void> {
    return this.media.insert(row);
  }

  /** The update taken most recently (by arrival), if any is still kept. */
  lastUpdate(): { updateId: number; receivedAt: string; kind: UpdateKind | null; ignored: boolean | null } | null {
    const row = this.db().sql.prepare("SELECT updateId, receivedAt, kind, ignored FROM messenger_seen_updates ORDER BY receivedAt DESC, updateId DESC LIMIT 1").get() as
      | { updateId: number; receivedAt: string; kind: UpdateKind | null; ignored: number | null }
      | undefined;
    return row ? { ...row, ignored: row.ignored === null ? null : row.ignored === 1 } : null;
  }

  /** How many files are recorded in `messenger_media`, their bytes, and when the latest came. */
  mediaSummary(): { saved: number; bytes: number; lastSavedAt: string | null } {
    const row = this.db().sql.prepare("SELECT count(*) AS saved, coalesce(sum(sizeBytes), 0) AS bytes, max(createdAt) AS lastSavedAt FROM messenger_media").get() as { saved: number; bytes: number; lastSavedAt: string | null };
    return row;
  }
}
