import { defineErrors } from "@muster/plugin";

/** The notifications plugin's error catalogue. */
export const notificationErrors = defineErrors({
  NOTIFICATION_NOT_FOUND: {
    status: 404,
    message: "No notification with id {ids}; nothing was changed",
  },
});
