import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** How urgent a notification is; clients may use it for sound or badges. */
export const NOTIFICATION_PRIORITIES = ["low", "normal", "high", "urgent"] as const;

/**
 * A notification for the human owner (priority, read and dismissed state): the one
 * declaration of `notifications_notifications` (migrations.ts creates it; a test checks
 * they agree). services/notification-store.ts reads and writes it.
 */
export const Notification = defineEntity({
  name: "Notification",
  tableName: "notifications_notifications",
  properties: {
    id: p.string().primary(),
    type: p.string(),
    title: p.string(),
    body: p.string(),
    priority: p.enum(NOTIFICATION_PRIORITIES),
    read: p.boolean().default(0),
    dismissed: p.boolean().default(0),
    agentId: p.string().nullable(),
    href: p.string().nullable(),
    createdAt: p.string(),
    readAt: p.string().nullable(),
    dismissedAt: p.string().nullable(),
  },
  checks: [
    { name: "notifications_notifications_read_check", expression: "read IN (0, 1)" },
    { name: "notifications_notifications_dismissed_check", expression: "dismissed IN (0, 1)" },
  ],
  // As migrations.ts creates them; `createdAt DESC` is declared by its column, since SQLite
  // reports no sort order when the schema is compared.
  indexes: [
    { name: "notifications_visible", properties: ["dismissed", "createdAt"] },
    { name: "notifications_unread", properties: ["dismissed", "read"] },
  ],
});

/** A stored notification as the query builder returns it (`read`, `dismissed` as booleans): the API shape. */
export type NotificationRow = EntityRow<typeof Notification>;
