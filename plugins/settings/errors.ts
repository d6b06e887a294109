import { defineErrors } from "@muster/plugin";

/** The settings plugin's error catalogue. */
export const settingsErrors = defineErrors({
  SETTING_NOT_FOUND: { status: 404, message: "No setting {key}" },
  SETTING_SECRET_NAME: {
    status: 400,
    message: "\"{key}\" looks like a secret (its name contains {match}); store secrets in the vault (POST /api/vault), not in settings",
  },
  SETTING_TOO_LARGE: { status: 413, message: "The value is {bytes} bytes of JSON; at most {limit} are accepted" },
  AUTOPILOT_GOAL_NOT_FOUND: { status: 404, message: "No autopilot goal with id {id}" },
  AUTOPILOT_RUN_NOT_FOUND: { status: 404, message: "No autopilot run with id {id}" },
});
