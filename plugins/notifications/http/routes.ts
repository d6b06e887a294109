import { defineRoutes } from "@muster/plugin";
import { NOTIFICATIONS } from "../tokens.ts";
import {
  createNotificationBody,
  createNotificationResponse,
  listNotificationsQuery,
  listNotificationsResponse,
  updateNotificationsBody,
  updateNotificationsResponse,
} from "./schemas.ts";

export const notificationRoutes = defineRoutes({
  deps: { notifications: NOTIFICATIONS },
  mount(router, { notifications }) {
    router.get(
      "/api/notifications",
      {
        summary: "Visible (not dismissed) notifications, newest first (unread=true|false filter; limit default 50, max 500), and the unread count",
        query: listNotificationsQuery,
        response: listNotificationsResponse,
      },
      async ({ query }) => ({ ok: true, ...(await notifications.list(query)) }),
    );

    router.post(
      "/api/notifications",
      { summary: "Create a notification for the human owner", body: createNotificationBody, status: 201, response: createNotificationResponse },
      async ({ body }) => ({ ok: true, notification: await notifications.createStored(body) }),
    );

    router.patch(
      "/api/notifications",
      {
        summary: "Mark notifications read or dismissed: {action:'read'|'dismiss', ids} or {action:'read_all'|'dismiss_all'}; unknown ids: 404, nothing changed",
        body: updateNotificationsBody,
        response: updateNotificationsResponse,
      },
      async ({ body }) => ({ ok: true, ...(await notifications.apply(body)) }),
    );
  },
});
