import { defineErrors, PUBLISHED_BEFORE_PREFIX_RULE } from "@muster/plugin";

/** The publishing plugin's error catalogue. */
export const publishingErrors = defineErrors("publishing", {
  PUBLISH_NOT_CONFIGURED: {
    status: 409,
    message: "{platform} is not configured: store the vault secret {secret} first; nothing was queued",
  },
  PUBLISH_UNKNOWN_PLATFORM: { status: 400, message: "No publishing platform \"{platform}\"; GET /api/content/platforms lists them" },
  CONTENT_OVER_LIMIT: { status: 400, message: "The content exceeds {platform}'s limits: {summary}" },
  CONTENT_DRAFT_NOT_FOUND: { status: 404, message: "No content draft with id {id}" },
  CONTENT_DRAFT_INVALID_TRANSITION: {
    status: 409,
    message: "A draft cannot go from {from} to {to}; allowed from {from}: {allowed}",
  },
  CONTENT_DRAFT_LOCKED: {
    status: 409,
    message: "Draft {id} is {status}: its content is fixed while it is being or has been published",
  },
  CONTENT_PUBLISH_IN_PROGRESS: {
    status: 409,
    message: "Draft {id} is {status}; only a draft in draft, review or failed can be sent for publishing (one approval at a time)",
  },
  CONTENT_NO_PLATFORMS: { status: 400, message: "Name at least one platform (in the request or on the draft)" },
}, {
  // Codes without the prefix PUBLISHING_ that clients already match: they keep their names (docs/errors.md).
  exempt: {
    PUBLISH_NOT_CONFIGURED: "named by DESIGN §14.10 (publishing)",
    PUBLISH_UNKNOWN_PLATFORM: PUBLISHED_BEFORE_PREFIX_RULE,
    CONTENT_OVER_LIMIT: PUBLISHED_BEFORE_PREFIX_RULE,
    CONTENT_DRAFT_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    CONTENT_DRAFT_INVALID_TRANSITION: PUBLISHED_BEFORE_PREFIX_RULE,
    CONTENT_DRAFT_LOCKED: PUBLISHED_BEFORE_PREFIX_RULE,
    CONTENT_PUBLISH_IN_PROGRESS: PUBLISHED_BEFORE_PREFIX_RULE,
    CONTENT_NO_PLATFORMS: PUBLISHED_BEFORE_PREFIX_RULE,
  },
});
