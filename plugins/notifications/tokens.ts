import { token } from "@muster/plugin";
import type { NotificationService } from "./services/notification-service.ts";

/** The notification service. Depend on the `notifications` plugin to use it. */
export const NOTIFICATIONS = token<NotificationService>("notifications.service");
