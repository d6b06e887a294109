import { defineErrors, PUBLISHED_BEFORE_PREFIX_RULE } from "@muster/plugin";

/** The approvals plugin's error catalogue. */
export const approvalErrors = defineErrors("approvals", {
  APPROVAL_NOT_FOUND: { status: 404, message: "No approval with id {id}" },
  APPROVAL_ALREADY_RESOLVED: { status: 409, message: "Approval {id} was already {status}; a decision cannot be changed" },
  APPROVAL_EXPIRED: { status: 409, message: "Approval {id} expired at {expiresAt} without a decision; request the action again" },
  APPROVAL_AGENT_FORBIDDEN: { status: 403, message: "Agents cannot decide approvals (the request carries X-Agent-Id); a human must decide" },
  APPROVAL_SELF_DECISION: { status: 403, message: "{decidedBy} requested this approval and cannot decide it; another person must" },
  APPROVAL_EXECUTOR_UNAVAILABLE: {
    status: 409,
    message: "No plugin currently defines the gated action \"{kind}\", so approving would run nothing; reject it or load the plugin",
  },
  APPROVAL_TYPE_GATED: {
    status: 400,
    message: "\"{type}\" is a gated action kind; request it through the plugin that defines it, not POST /api/approvals",
  },
  APPROVAL_PAYLOAD_INVALID: { status: 400, message: "The approval payload is not storable JSON: {reason}" },
  APPROVAL_DECIDER_NOT_ALLOWED: {
    status: 403,
    message: "{decidedBy} is not a configured approver; only the owner and the humans in MUSTER_APPROVERS (or \"approvers\" in muster.config.json) decide approvals",
  },
  APPROVAL_PAYLOAD_TOO_LARGE: {
    status: 413,
    message: "The approval payload is {bytes} bytes of JSON; at most {limit} are accepted. Store large data elsewhere and pass a reference",
  },
  APPROVAL_PENDING_LIMIT: {
    status: 429,
    message: "{requestedBy} already has {limit} pending approvals; wait until some are decided or expire",
  },
}, {
  // Codes without the prefix APPROVALS_ that clients already match: they keep their names (docs/errors.md).
  exempt: {
    APPROVAL_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    APPROVAL_ALREADY_RESOLVED: "named by DESIGN §5 (the error envelope)",
    APPROVAL_EXPIRED: PUBLISHED_BEFORE_PREFIX_RULE,
    APPROVAL_AGENT_FORBIDDEN: PUBLISHED_BEFORE_PREFIX_RULE,
    APPROVAL_SELF_DECISION: PUBLISHED_BEFORE_PREFIX_RULE,
    APPROVAL_EXECUTOR_UNAVAILABLE: PUBLISHED_BEFORE_PREFIX_RULE,
    APPROVAL_TYPE_GATED: PUBLISHED_BEFORE_PREFIX_RULE,
    APPROVAL_PAYLOAD_INVALID: PUBLISHED_BEFORE_PREFIX_RULE,
    APPROVAL_DECIDER_NOT_ALLOWED: PUBLISHED_BEFORE_PREFIX_RULE,
    APPROVAL_PAYLOAD_TOO_LARGE: PUBLISHED_BEFORE_PREFIX_RULE,
    APPROVAL_PENDING_LIMIT: PUBLISHED_BEFORE_PREFIX_RULE,
  },
});
