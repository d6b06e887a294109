import { definePlugin, defineService } from "@muster/plugin";
import { Notification } from "./entities/notification.ts";
import { migrations } from "./migrations.ts";
import { NotificationService } from "./services/notification-service.ts";
import { NOTIFICATIONS } from "./tokens.ts";
import { mountNotificationRoutes } from "./http/routes.ts";

/** Notifications for the human owner: `GET`/`POST`/`PATCH /api/notifications` and the `notifications.service` other plugins use. */
export const notificationsPlugin = definePlugin({
  id: "notifications",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/notifications"],
  entities: [Notification],
  migrations,
  register(ctx) {
    ctx.provide(defineService({ token: NOTIFICATIONS, deps: {}, create: (_deps, c) => new NotificationService({ db: () => c.db, events: c.events }) }));
  },
  routes: mountNotificationRoutes,
});

export default notificationsPlugin;
