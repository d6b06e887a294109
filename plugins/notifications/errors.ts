import { defineErrors } from "@muster/plugin";

/** The notifications plugin's error catalogue. */
export const notificationErrors = defineErrors({
  NOTIFICATION_NOT_FOUND: {
    status: 404,
    message: (p) => `No notification with id ${(p.ids as string[]).join(", ")}; nothing was changed`,
  },
});
