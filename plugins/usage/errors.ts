import { defineErrors } from "@muster/plugin";

/** The usage plugin's error catalogue. */
export const usageErrors = defineErrors("usage", {
  BUDGET_EXCEEDED: {
    status: 409,
    message: "Agent {agentId} has spent {spentCents} of its {budgetCents} cent daily budget today (UTC); it runs again tomorrow or after a raise (PUT /api/usage/budgets/{agentId})",
  },
  USAGE_TOKENS_OUT_OF_RANGE: { status: 400, message: "{field} must be a whole number between 0 and {max}; got {value}" },
  USAGE_UNKNOWN_TIME_ZONE: { status: 400, message: "Unknown time zone {tz}; use an IANA name such as Europe/Paris" },
}, {
  // Codes without the prefix USAGE_ that clients already match: they keep their names (docs/errors.md).
  exempt: {
    BUDGET_EXCEEDED: "named by DESIGN §14.7 (budgets)",
  },
});
