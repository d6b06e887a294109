import type { NotificationAction, NotificationRecord } from "./services/notification-service.ts";

/** Events the notifications plugin publishes (all public: forwarded to SSE clients). */
export interface NotificationEvents {
  "notifications.notification.created": NotificationRecord;
  "notifications.notification.updated": { action: NotificationAction["action"]; ids: string[]; unreadCount: number };
}

declare module "@muster/plugin" {
  interface MusterEvents extends NotificationEvents {}
}
