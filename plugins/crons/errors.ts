import { defineErrors, PUBLISHED_BEFORE_PREFIX_RULE } from "@muster/plugin";

/** The crons plugin's error catalogue. */
export const cronErrors = defineErrors("crons", {
  CRON_NOT_FOUND: { status: 404, message: "No cron job with id {id}" },
  CRON_INVALID_EXPRESSION: { status: 400, message: "Invalid cron expression \"{cron}\": {reason}" },
  CRON_UNKNOWN_TIME_ZONE: { status: 400, message: "Unknown time zone {timezone}; use an IANA name such as Europe/Paris" },
  CRON_AGENT_NOT_FOUND: { status: 404, message: "No agent with id {agentId}" },
  CRON_EDIT_EMPTY: { status: 400, message: "Nothing to change: send action, or at least one of name, cron, message" },
  CRON_JOB_LIMIT: { status: 409, message: "There are already {limit} cron jobs; delete some first" },
}, {
  // Codes without the prefix CRONS_ that clients already match: they keep their names (docs/errors.md).
  exempt: {
    CRON_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    CRON_INVALID_EXPRESSION: PUBLISHED_BEFORE_PREFIX_RULE,
    CRON_UNKNOWN_TIME_ZONE: PUBLISHED_BEFORE_PREFIX_RULE,
    CRON_AGENT_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    CRON_EDIT_EMPTY: PUBLISHED_BEFORE_PREFIX_RULE,
    CRON_JOB_LIMIT: PUBLISHED_BEFORE_PREFIX_RULE,
  },
});
