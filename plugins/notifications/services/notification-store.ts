import { SerialQueue, atomically, defineStore, insertionOrder, type Database, type EntityStore } from "@muster/plugin";
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
 * On SQLite the insert is a synchronous raw statement on the shared connection: other plugins
 * create notifications from their synchronous report paths (approval reports, right after
 * their own write). PostgreSQL has no synchronous statement: there the insert is queued
 * through the store kit, in call order per process. Marking by ids checks that every id
 * exists and changes all or nothing: one `atomically` step on both engines.
 */
export class NotificationStore {
  private readonly db: () => Database;
  private insertStatement?: ReturnType<Database["sql"]["prepare"]>;
  private readonly rows: EntityStore<typeof Notification>;
  /** PostgreSQL's inserts, one after another in call order. */
  private readonly inserts = new SerialQueue();
  constructor(db: () => Database) {
    this.db = db;
    this.rows = notifications.on(db);
  }

  /** Whether {@link insert} is the engine's write: SQLite; PostgreSQL has no synchronous statement. */
  get synchronous(): boolean {
    return this.db().engine !== "postgresql";
  }

  /** SQLite: one synchronous statement, prepared once. */
  insert(row: NotificationRow): void {
    this.insertStatement ??= this.db().sql.prepare(`INSERT INTO notifications_notifications (${FIELDS.join(", ")}) VALUES (${FIELDS.map((f) => `@${f}`).join(", ")})`);
    this.insertStatement.run({ ...row, read: row.read ? 1 : 0, dismissed: row.dismissed ? 1 : 0 });
  }

  /**
   * PostgreSQL: inserts one row through the store kit after every insert queued before it (one
   * failing does not stop the next), so one process's notifications commit in call order.
   */
  insertQueued(row: NotificationRow): Promise<void> {
    return this.inserts.run(async () => void (await this.rows.insert(row)));
  }

  /** Resolves once every insert queued so far has settled. */
  async settled(): Promise<void> {
    await this.inserts.idle();
  }

  /** Visible (not dismissed) notifications, newest first; `unread` filters on the read flag. */
  async visible(query: { limit: number; unread?: boolean }): Promise<NotificationRow[]> {
    await this.inserts.idle();
    return this.rows.list({ where: { dismissed: false, ...(query.unread === undefined ? {} : { read: !query.unread }) }, limit: query.limit });
  }

  /** Number of visible unread notifications. */
  async unreadCount(): Promise<number> {
    await this.inserts.idle();
    return this.rows.count({ dismissed: false, read: false });
  }

  /** One notification by id, dismissed or not. */
  async get(id: string): Promise<NotificationRow | null> {
    await this.inserts.idle();
    return this.rows.get(id);
  }

  /**
   * Sets `flag` (and its timestamp, `now`) on `ids`, or on every visible notification
   * without it when `ids` is null; rows that already have it keep their timestamp. With
   * ids, every id must exist: otherwise nothing changes and `missing` lists the unknown
   * ones. Returns the ids this call changed.
   */
  async mark(flag: NotificationFlag, ids: string[] | null, now: string): Promise<{ changed: string[]; missing: string[] }> {
    await this.inserts.idle();
    const { column, stamp } = flag;
    return atomically(this.db(), function* (tx) {
      let targets: string[];
      if (ids) {
        // At most 500 ids (the request schema's cap): one placeholder each, on both engines.
        const found = new Set((yield* tx.all<{ id: string }>(`SELECT id FROM notifications_notifications WHERE id IN (${ids.map(() => "?").join(", ")})`, ids)).map((r) => r.id));
        const missing = ids.filter((id) => !found.has(id));
        if (missing.length > 0) return { changed: [], missing };
        targets = ids;
      } else {
        targets = (yield* tx.all<{ id: string }>(`SELECT id FROM notifications_notifications WHERE dismissed = ? AND "${column}" = ?`, [false, false])).map((r) => r.id);
      }
      const changed: string[] = [];
      for (const id of targets) {
        const { changes } = yield* tx.run(`UPDATE notifications_notifications SET "${column}" = ?, "${stamp}" = ? WHERE id = ? AND "${column}" = ?`, [true, now, id, false]);
        if (changes === 1) changed.push(id);
      }
      return { changed, missing: [] };
    });
  }
}
