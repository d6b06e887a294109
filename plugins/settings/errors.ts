import { defineErrors, PUBLISHED_BEFORE_PREFIX_RULE } from "@muster/plugin";

/** The settings plugin's error catalogue. */
export const settingsErrors = defineErrors("settings", {
  SETTING_NOT_FOUND: { status: 404, message: "No setting {key}" },
  SETTING_SECRET_NAME: {
    status: 400,
    message: "\"{key}\" looks like a secret (its name contains {match}); store secrets in the vault (POST /api/vault), not in settings",
  },
  SETTING_TOO_LARGE: { status: 413, message: "The value is {bytes} bytes of JSON; at most {limit} are accepted" },
  AUTOPILOT_GOAL_NOT_FOUND: { status: 404, message: "No autopilot goal with id {id}" },
  AUTOPILOT_RUN_NOT_FOUND: { status: 404, message: "No autopilot run with id {id}" },
}, {
  // Codes without the prefix SETTINGS_ that clients already match: they keep their names (docs/errors.md).
  exempt: {
    SETTING_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    SETTING_SECRET_NAME: PUBLISHED_BEFORE_PREFIX_RULE,
    SETTING_TOO_LARGE: PUBLISHED_BEFORE_PREFIX_RULE,
    AUTOPILOT_GOAL_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    AUTOPILOT_RUN_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
  },
});
