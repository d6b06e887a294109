import { z, schemas } from "@muster/plugin";
import { NOTIFICATION_PRIORITIES } from "../entities/notification.ts";

export const prioritySchema = z.enum(NOTIFICATION_PRIORITIES);

export const notificationSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  body: z.string(),
  priority: prioritySchema,
  read: z.boolean(),
  dismissed: z.boolean(),
  agentId: z.string().nullable(),
  href: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  dismissedAt: z.string().nullable(),
});

/** A link inside the UI (`/tasks/1`) or an http(s) URL; `javascript:`, `data:` and `//host` are refused. */
const href = z
  .string()
  .max(2000)
  .refine((v) => /^\/(?![/\\])/.test(v) || /^https?:\/\/[^\s]+$/i.test(v), "must be a path starting with / or an http(s) URL");

export const listNotificationsQuery = z.strictObject({
  unread: z.enum(["true", "false"]).transform((v) => v === "true").optional(),
  limit: schemas.limit(50, 500),
});

export const createNotificationBody = z.strictObject({
  type: z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/, "must be a lower-case word such as approval, task or system"),
  title: z.string().min(1).max(500),
  body: z.string().max(10_000).optional(),
  priority: prioritySchema.optional(),
  agentId: schemas.id.nullable().optional(),
  href: href.nullable().optional(),
});

export const updateNotificationsBody = z.discriminatedUnion("action", [
  z.strictObject({ action: z.enum(["read", "dismiss"]), ids: z.array(schemas.id).min(1).max(500) }),
  z.strictObject({ action: z.enum(["read_all", "dismiss_all"]) }),
]);

export const listNotificationsResponse = z.object({ ok: z.literal(true), notifications: z.array(notificationSchema), unreadCount: z.number() });
export const createNotificationResponse = z.object({ ok: z.literal(true), notification: notificationSchema });
export const updateNotificationsResponse = z.object({ ok: z.literal(true), updated: z.number(), ids: z.array(z.string()), unreadCount: z.number() });
