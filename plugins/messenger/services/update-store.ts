import { atomically, defineStore, raw, type Database, type EntityStore } from "@muster/plugin";
import { MediaFile, type MediaFileRow } from "../entities/media-file.ts";
import { SeenUpdate } from "../entities/seen-update.ts";
import type { UpdateKind } from "./update-kind.ts";

const seenUpdates = defineStore(SeenUpdate, { key: "updateId", orderBy: [{ receivedAt: "desc" }, { updateId: "desc" }] });
/** Reads leave the bytes out; `mediaContent` reads them for one file. */
const media = defineStore(MediaFile, { fields: ["id", "updateId", "path", "mimeType", "sizeBytes", "createdAt"] });

/**
 * `messenger_seen_updates` and `messenger_media` over the store kit, on SQLite and PostgreSQL.
 * Marking an update seen is one atomic step (`atomically`: the check against the retained
 * window, the insert-or-ignore and the trim in one transaction), so two deliveries of one
 * update id race to exactly one winner.
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
  async markSeen(updateId: number, now: string, note: { kind: UpdateKind; ignored: boolean }): Promise<boolean> {
    const maxSeen = this.maxSeen;
    return atomically(this.db(), function* (tx) {
      const kept = (yield* tx.get<{ n: number | string; oldest: number | null }>(`SELECT count(*) AS n, min("updateId") AS oldest FROM messenger_seen_updates`))!;
      // PostgreSQL's count is a bigint, which its driver reads as a string.
      const count = Number(kept.n);
      if (count >= maxSeen && kept.oldest !== null && updateId < kept.oldest) return false;
      const claim = yield* tx.run(`INSERT INTO messenger_seen_updates ("updateId", "receivedAt", kind, ignored) VALUES (?, ?, ?, ?) ON CONFLICT ("updateId") DO NOTHING`, [updateId, now, note.kind, note.ignored]);
      if (claim.changes === 0) return false;
      const excess = count + 1 - maxSeen;
      if (excess > 0) yield* tx.run(`DELETE FROM messenger_seen_updates WHERE "updateId" IN (SELECT "updateId" FROM messenger_seen_updates ORDER BY "updateId" LIMIT ?)`, [excess]);
      return true;
    });
  }

  /** Forgets an update whose handling failed unexpectedly, so Telegram's redelivery is handled (deciding is idempotent: a second decision is refused). */
  async forget(updateId: number): Promise<void> {
    await this.seen.delete(updateId);
  }

  addMedia(row: MediaFileRow): Promise<void> {
    return this.media.insert(row);
  }

  /** One stored file's record with its bytes (null on SQLite, where they are the file), or null when none has this id. */
  async mediaContent(id: string): Promise<Pick<MediaFileRow, "path" | "mimeType" | "content"> | null> {
    const [row] = await this.media.list({ where: { id }, fields: ["path", "mimeType", "content"], limit: 1 });
    return row ?? null;
  }

  /** The update taken most recently (by arrival), if any is still kept. */
  async lastUpdate(): Promise<{ updateId: number; receivedAt: string; kind: UpdateKind | null; ignored: boolean | null } | null> {
    const row = await this.seen.find({});
    return row ? { updateId: row.updateId, receivedAt: row.receivedAt, kind: row.kind as UpdateKind | null, ignored: row.ignored } : null;
  }

  /** How many files are recorded in `messenger_media`, their bytes, and when the latest came. */
  async mediaSummary(): Promise<{ saved: number; bytes: number; lastSavedAt: string | null }> {
    const row = (await this.media
      .qb()
      .select([raw("count(*) AS saved"), raw(`coalesce(sum("sizeBytes"), 0) AS bytes`), raw(`max("createdAt") AS "lastSavedAt"`)])
      .execute("get", false)) as { saved: number | string; bytes: number | string; lastSavedAt: string | null };
    // PostgreSQL's count and sum are bigint/numeric, which its driver reads as strings.
    return { saved: Number(row.saved), bytes: Number(row.bytes), lastSavedAt: row.lastSavedAt };
  }
}
