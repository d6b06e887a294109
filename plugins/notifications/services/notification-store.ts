import { defineStore, insertionOrder, type Database, type EntityStore } from "@muster/plugin";
import { Notification, type NotificationRow } from "../entities/notification.ts";

/** Every column, derived once from the entity. */
const FIELDS = Object.keys(Notification.meta.properties) as (keyof NotificationRow)[];

/** Newest first; booleans mapped. */
const notifications = defineStore(Notification, { orderBy: [{ createdAt: "desc" }, insertionOrder("desc")] });

/** Which flag a change sets, and the timestamp column that records when. */
export type NotificationFlag = { column: "read"; stamp: "readAt" } | { column: "dismissed"; stamp: "dismissedAt" };

/**
 * `notifications_notifications`: reads over the store kit (plain rows with booleans, no
 * entities).
 *
 * The insert and the marking are synchronous raw statements on the shared connection: other
 * plugins create notifications from their synchronous report paths (approval reports, right
 * after their own write), and marking by ids checks that every id exists and changes all or
 * nothing, several statements that must be one `sql.transaction()` no other request can
 * interleave with.
 */
export class NotificationStore {
  private readonly db: () => Database;
  private insertStatement?: ReturnType<Database["sql"]["prepare"]>;
  private readonly rows: EntityStore<typeof Notification>;
  constructor(db: () => Database) {
    this.db = db;
    this.rows = notifications.on(db);
  }

  insert(row: NotificationRow): void {
    this.insertStatement ??= this.db().sql.prepare(`INSERT INTO notifications_notifications (${FIELDS.join(", ")}) VALUES (${FIELDS.map((f) => `@${f}`).join(", ")})`);
    this.insertStatement.run({ ...row, read: row.read ? 1 : 0, dismissed: row.dismissed ? 1 : 0 });
  }

  /** Visible (not dismissed) notifications, newest first; `unread` filters on the read flag. */
  visible(query: { limit: number; unread?: boolean }): Promise<NotificationRow[]> {
    return this.rows.list({ where: { dismissed: false, ...(query.unread === undefined ? {} : { read: !query.unread }) }, limit: query.limit });
  }

  /** Number of visible unread notifications. */
  unreadCount(): Promise<number> {
    return this.rows.count({ dismissed: false, read: false });
  }

  /** One notification by id, dismissed or not. */
  get(id: string): Promise<NotificationRow | null> {
    return this.rows.get(id);
  }

  /**
   * Sets `flag` (and its timestamp, `now`) on `ids`, or on every visible notification
   * without it when `ids` is null; rows that already have it keep their timestamp. With
   * ids, every id must exist: otherwise nothing changes and `missing` lists the unknown
   * ones. Returns the ids this call changed.
   */
  mark(flag: NotificationFlag, ids: string[] | null, now: string): { changed: string[]; missing: string[] } {
    const sql = this.db().sql;
    const { column, stamp } = flag;
    return sql.transaction(() => {
      let targets: string[];
      if (ids) {
        const found = new Set(
          (sql.prepare(`SELECT id FROM notifications_notifications WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as { id: string }[]).map((r) => r.id),
        );
        const missing = ids.filter((id) => !found.has(id));
        if (missing.length > 0) return { changed: [], missing };
        targets = ids;
      } else {
        targets = (sql.prepare(`SELECT id FROM notifications_notifications WHERE dismissed = 0 AND ${column} = 0`).all() as { id: string }[]).map((r) => r.id);
      }
      const update = sql.prepare(`UPDATE notifications_notifications SET ${column} = 1, ${stamp} = ? WHERE id = ? AND ${column} = 0`);
      return { changed: targets.filter((id) => update.run(now, id).changes === 1), missing: [] };
    })();
  }
}
