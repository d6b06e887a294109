import { definePlugin } from "@muster/plugin";
import { Notification } from "./entities/notification.ts";
import { migrations } from "./migrations.ts";
import { notificationRoutes } from "./http/routes.ts";
import { registerNotificationServices } from "./services/register.ts";

/** Notifications for the human owner: `GET`/`POST`/`PATCH /api/notifications` and the `notifications.service` other plugins use. */
export const notificationsPlugin = definePlugin({
  id: "notifications",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/notifications"],
  entities: [Notification],
  migrations,
  register: registerNotificationServices,
  routes: notificationRoutes,
});

export default notificationsPlugin;
