import { defineEntity, p } from "@muster/plugin";

/**
 * A notification for the human owner (priority, read and dismissed state). Rows are
 * written with prepared statements by {@link NotificationService}; the entity documents
 * the table for the ORM and for readers that want entities.
 */
export const Notification = defineEntity({
  name: "Notification",
  tableName: "notifications_notifications",
  properties: {
    id: p.string().primary(),
    type: p.string(),
    title: p.string(),
    body: p.string(),
    priority: p.string(),
    read: p.boolean(),
    dismissed: p.boolean(),
    agentId: p.string().nullable(),
    href: p.string().nullable(),
    createdAt: p.string(),
    readAt: p.string().nullable(),
    dismissedAt: p.string().nullable(),
  },
});
