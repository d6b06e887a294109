import { defineErrors, PUBLISHED_BEFORE_PREFIX_RULE } from "@muster/plugin";

/** The notifications plugin's error catalogue. */
export const notificationErrors = defineErrors("notifications", {
  NOTIFICATION_NOT_FOUND: {
    status: 404,
    message: "No notification with id {ids}; nothing was changed",
  },
}, {
  // Codes without the prefix NOTIFICATIONS_ that clients already match: they keep their names (docs/errors.md).
  exempt: {
    NOTIFICATION_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
  },
});
