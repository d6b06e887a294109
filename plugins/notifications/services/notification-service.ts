import { randomUUID } from "node:crypto";
import { answerAfter, clip, type Database, type EventBus, type Logger, type TextRedactor } from "@muster/plugin";
import { notificationErrors } from "../errors.ts";
import type { NotificationRow } from "../entities/notification.ts";
import type { Notifier } from "../tokens.ts";
import { NotificationStore, type NotificationFlag } from "./notification-store.ts";

/** How urgent a notification is; clients may use it for sound or badges. */
export type NotificationPriority = NotificationRow["priority"];

/**
 * A stored notification as the API returns it. `type` says what it is about (`approval`,
 * `task`, `agent`, `system`, `chat`, …); `href` is a link inside the Muster UI or an
 * http(s) URL, never `javascript:`/`data:`.
 */
export type NotificationRecord = NotificationRow;

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

const TITLE_MAX = 500;
const BODY_MAX = 10_000;



/**
 * Notifications for the human owner. Other plugins create them through the
 * `notifications.service` token, listed in their deps:
 *
 * @example
 * deps: { notifications: NOTIFICATIONS } // then:
 * notifications.create({ type: "approval", title: "Approval requested", body, priority: "high" });
 */
export class NotificationService implements Notifier {
  private readonly deps: { db: () => Database; events: EventBus; redaction: TextRedactor; logger: Logger };
  private readonly store: NotificationStore;
  constructor(deps: { db: () => Database; events: EventBus; redaction: TextRedactor; logger: Logger }) {
    this.deps = deps;
    this.store = new NotificationStore(deps.db);
  }

  /**
   * Stores a notification and publishes `notifications.notification.created` (public). Any
   * vault secret value in the title or body is replaced before storing (redacted before
   * clipping, so a cut never leaves the start of a secret behind).
   *
   * On SQLite the row is stored before this returns. On PostgreSQL, which has no synchronous
   * statement, the record is returned at once and stored just after, in call order per
   * process; the event follows the commit, and a failed insert is logged (no event), never
   * thrown into the caller.
   */
  create(input: NewNotification): NotificationRecord {
    const record = this.recordOf(input);
    if (this.store.synchronous) {
      this.store.insert(record);
      this.publish(record);
    } else {
      const stored = this.store.insertQueued(record).then(
        () => this.publish(record),
        (error: unknown) => this.deps.logger.error({ err: error, type: record.type }, "notification not stored"),
      );
      // The request that made it answers once it is stored: the next request, on any instance, lists it.
      answerAfter(() => stored);
    }
    return record;
  }

  /**
   * `POST /api/notifications`: like {@link create}, but resolves once the row is committed
   * (and rejects if it is not), so the 201 is an acknowledged write on PostgreSQL too: the
   * next request, on any instance of a team, lists it and can mark it.
   */
  async createStored(input: NewNotification): Promise<NotificationRecord> {
    if (this.store.synchronous) return this.create(input);
    const record = this.recordOf(input);
    await this.store.insertQueued(record);
    this.publish(record);
    return record;
  }

  /** The record as stored: free text redacted and clipped, a new id, now. */
  private recordOf(input: NewNotification): NotificationRecord {
    const redact = (text: string) => this.deps.redaction.redact(text);
    return {
      id: randomUUID(),
      type: clip(input.type, 64),
      title: clip(redact(input.title), TITLE_MAX),
      body: clip(redact(input.body ?? ""), BODY_MAX),
      priority: input.priority ?? "normal",
      read: false,
      dismissed: false,
      agentId: input.agentId ?? null,
      href: input.href ?? null,
      createdAt: new Date().toISOString(),
      readAt: null,
      dismissedAt: null,
    };
  }

  private publish(record: NotificationRecord): void {
    this.deps.events.publish("notifications.notification.created", record, { public: true });
  }

  /** Visible (not dismissed) notifications, newest first, and the number of unread ones. */
  async list(query: NotificationQuery): Promise<{ notifications: NotificationRecord[]; unreadCount: number }> {
    return { notifications: await this.store.visible(query), unreadCount: await this.unreadCount() };
  }

  /** Number of visible unread notifications. */
  unreadCount(): Promise<number> {
    return this.store.unreadCount();
  }

  /** One notification by id, dismissed or not. */
  get(id: string): Promise<NotificationRecord | null> {
    return this.store.get(id);
  }

  /**
   * Marks notifications read or dismissed. With ids, every id must exist, otherwise 404
   * `NOTIFICATION_NOT_FOUND` and nothing changes. Already read/dismissed ones keep their
   * original timestamps. Publishes one `notifications.notification.updated` event
   * `{ action, ids, unreadCount }` for the changed ids.
   */
  async apply(change: NotificationAction): Promise<{ updated: number; ids: string[]; unreadCount: number }> {
    const flag: NotificationFlag = change.action.startsWith("read") ? { column: "read", stamp: "readAt" } : { column: "dismissed", stamp: "dismissedAt" };
    const { changed, missing } = await this.store.mark(flag, "ids" in change ? [...new Set(change.ids)] : null, new Date().toISOString());
    if (missing.length > 0) throw notificationErrors.NOTIFICATION_NOT_FOUND({ ids: missing.slice(0, 10).join(", ") }, { details: { missing } });
    const unreadCount = await this.unreadCount();
    if (changed.length > 0) {
      this.deps.events.publish("notifications.notification.updated", { action: change.action, ids: changed, unreadCount }, { public: true });
    }
    return { updated: changed.length, ids: changed, unreadCount };
  }

  /** Resolves once every insert queued so far has settled (PostgreSQL; at once on SQLite). */
  settled(): Promise<void> {
    return this.store.settled();
  }
}
