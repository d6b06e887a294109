import { randomUUID } from "node:crypto";
import { clip, type Database, type EventBus } from "@muster/plugin";
import { notificationErrors } from "../errors.ts";
import type { Notifier } from "../tokens.ts";

/** How urgent a notification is; clients may use it for sound or badges. */
export type NotificationPriority = "low" | "normal" | "high" | "urgent";

export interface NotificationRecord {
  id: string;
  /** What it is about: `approval`, `task`, `agent`, `system`, `chat`, … */
  type: string;
  title: string;
  body: string;
  priority: NotificationPriority;
  read: boolean;
  dismissed: boolean;
  agentId: string | null;
  /** A link inside the Muster UI or an http(s) URL; never `javascript:`/`data:`. */
  href: string | null;
  createdAt: string;
  readAt: string | null;
  dismissedAt: string | null;
}

export interface NewNotification {
  type: string;
  title: string;
  body?: string | null;
  /** Default `normal`. */
  priority?: NotificationPriority;
  agentId?: string | null;
  href?: string | null;
}

export interface NotificationQuery {
  limit: number;
  /** Only unread (`true`) or only read (`false`) notifications. */
  unread?: boolean;
}

/** `read`/`dismiss` take ids; `read_all`/`dismiss_all` apply to every visible notification. */
export type NotificationAction =
  | { action: "read" | "dismiss"; ids: string[] }
  | { action: "read_all" | "dismiss_all" };

type Row = Omit<NotificationRecord, "read" | "dismissed"> & { read: number; dismissed: number };

const COLUMNS = "id, type, title, body, priority, read, dismissed, agentId, href, createdAt, readAt, dismissedAt";
const TITLE_MAX = 500;
const BODY_MAX = 10_000;


const toRecord = (row: Row): NotificationRecord => ({ ...row, read: row.read === 1, dismissed: row.dismissed === 1 });

/**
 * Notifications for the human owner. Other plugins create them through the
 * `notifications.service` token:
 *
 * @example
 * ctx.resolve(NOTIFICATIONS).create({ type: "approval", title: "Approval requested", body, priority: "high" });
 */
export class NotificationService implements Notifier {
  private readonly deps: { db: () => Database; events: EventBus };
  constructor(deps: { db: () => Database; events: EventBus }) {
    this.deps = deps;
  }

  /** Stores a notification and publishes `notifications.notification.created` (public). */
  create(input: NewNotification): NotificationRecord {
    const record: NotificationRecord = {
      id: randomUUID(),
      type: clip(input.type, 64),
      title: clip(input.title, TITLE_MAX),
      body: clip(input.body ?? "", BODY_MAX),
      priority: input.priority ?? "normal",
      read: false,
      dismissed: false,
      agentId: input.agentId ?? null,
      href: input.href ?? null,
      createdAt: new Date().toISOString(),
      readAt: null,
      dismissedAt: null,
    };
    // Append-only with no invariant beyond the row itself: a prepared insert keeps it cheap.
    this.deps
      .db()
      .sql.prepare(
        `INSERT INTO notifications_notifications (${COLUMNS})
         VALUES (@id, @type, @title, @body, @priority, 0, 0, @agentId, @href, @createdAt, NULL, NULL)`,
      )
      .run(record);
    this.deps.events.publish("notifications.notification.created", record, { public: true });
    return record;
  }

  /** Visible (not dismissed) notifications, newest first, and the number of unread ones. */
  list(query: NotificationQuery): { notifications: NotificationRecord[]; unreadCount: number } {
    const sql = this.deps.db().sql;
    const filter = query.unread === undefined ? "" : `AND read = ${query.unread ? 0 : 1}`;
    const rows = sql
      .prepare(`SELECT ${COLUMNS} FROM notifications_notifications WHERE dismissed = 0 ${filter} ORDER BY createdAt DESC, rowid DESC LIMIT ?`)
      .all(query.limit) as Row[];
    return { notifications: rows.map(toRecord), unreadCount: this.unreadCount() };
  }

  /** Number of visible unread notifications. */
  unreadCount(): number {
    const row = this.deps.db().sql.prepare("SELECT COUNT(*) AS n FROM notifications_notifications WHERE dismissed = 0 AND read = 0").get() as { n: number };
    return row.n;
  }

  /** One notification by id, dismissed or not. */
  get(id: string): NotificationRecord | null {
    const row = this.deps.db().sql.prepare(`SELECT ${COLUMNS} FROM notifications_notifications WHERE id = ?`).get(id) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /**
   * Marks notifications read or dismissed. With ids, every id must exist, otherwise 404
   * `NOTIFICATION_NOT_FOUND` and nothing changes. Already read/dismissed ones keep their
   * original timestamps. Publishes one `notifications.notification.updated` event
   * `{ action, ids, unreadCount }` for the changed ids.
   */
  apply(change: NotificationAction): { updated: number; ids: string[]; unreadCount: number } {
    const sql = this.deps.db().sql;
    const now = new Date().toISOString();
    const column = change.action.startsWith("read") ? "read" : "dismissed";
    const stamp = column === "read" ? "readAt" : "dismissedAt";
    const run = sql.transaction((): string[] => {
      let targets: string[];
      if ("ids" in change) {
        const ids = [...new Set(change.ids)];
        const found = new Set(
          (sql.prepare(`SELECT id FROM notifications_notifications WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as { id: string }[]).map((r) => r.id),
        );
        const missing = ids.filter((id) => !found.has(id));
        if (missing.length > 0) throw notificationErrors.NOTIFICATION_NOT_FOUND({ ids: missing.slice(0, 10).join(", ") }, { details: { missing } });
        targets = ids;
      } else {
        targets = (sql.prepare(`SELECT id FROM notifications_notifications WHERE dismissed = 0 AND ${column} = 0`).all() as { id: string }[]).map((r) => r.id);
      }
      const update = sql.prepare(`UPDATE notifications_notifications SET ${column} = 1, ${stamp} = ? WHERE id = ? AND ${column} = 0`);
      return targets.filter((id) => update.run(now, id).changes === 1);
    });
    const changed = run();
    const unreadCount = this.unreadCount();
    if (changed.length > 0) {
      this.deps.events.publish("notifications.notification.updated", { action: change.action, ids: changed, unreadCount }, { public: true });
    }
    return { updated: changed.length, ids: changed, unreadCount };
  }
}
