import { contribute, definePlugin } from "@muster/plugin";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { Notification } from "./entities/notification.ts";
import { migrations } from "./migrations.ts";
import { notificationRoutes } from "./http/routes.ts";
import { registerNotificationServices } from "./services/register.ts";

/** Notifications for the human owner: `GET`/`POST`/`PATCH /api/notifications` and the `notifications.service` other plugins use. */
export const notificationsPlugin = definePlugin({
  id: "notifications",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["stream"],
  paths: ["/api/notifications"],
  entities: [Notification],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "notifications.notification.*", description: "A notification was created, or notifications were read or dismissed" }),
  ],
  register: registerNotificationServices,
  routes: notificationRoutes,
});

export default notificationsPlugin;
