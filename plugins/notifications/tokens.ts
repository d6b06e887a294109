import { token } from "@muster/plugin";
import type { NewNotification, NotificationAction, NotificationQuery, NotificationRecord } from "./services/notification-service.ts";

export type { NewNotification, NotificationAction, NotificationQuery, NotificationRecord };

/** Notifications for the human owner. */
export interface Notifier {
  /** Stores a notification and publishes `notifications.notification.created` (public). */
  create(input: NewNotification): NotificationRecord;
  /** Like `create`, resolving once the notification is stored (on PostgreSQL `create` stores it just after it returns). */
  createStored(input: NewNotification): Promise<NotificationRecord>;
  list(query: NotificationQuery): Promise<{ notifications: NotificationRecord[]; unreadCount: number }>;
  unreadCount(): Promise<number>;
  get(id: string): Promise<NotificationRecord | null>;
  /** Marks read or dismisses; publishes `notifications.notification.updated` when anything changed. */
  apply(change: NotificationAction): Promise<{ updated: number; ids: string[]; unreadCount: number }>;
}

/** The notification service. Depend on the `notifications` plugin to use it. */
export const NOTIFICATIONS = token<Notifier>("notifications.service");
