import { z } from "@muster/plugin";

/** `config.messenger` in muster.config.json (docs/messenger.md). */
export const messengerConfig = z.strictObject({
  telegram: z
    .strictObject({
      /** The Bot API root (`<apiBaseUrl>/bot<token>/<method>`, files at `<apiBaseUrl>/file/bot<token>/<path>`). */
      apiBaseUrl: z
        .url({ protocol: /^https?$/ })
        .transform((u) => u.replace(/\/+$/, ""))
        .default("https://api.telegram.org"),
    })
    .prefault({}),
  /**
   * The human the chat decides as: a press of Approve/Reject is the decision of this person,
   * checked by the approvals plugin like `decidedBy` over HTTP (the owner or a configured
   * approver, never the requester). Default: the owner.
   */
  decidedBy: z.string().trim().min(1).max(128).nullable().default(null),
  /** When not empty, only presses by these Telegram user ids decide; others get "not allowed". */
  allowedUserIds: z.array(z.number().int()).max(100).default([]),
  /** One Bot API request's deadline. */
  requestTimeoutMs: z.number().int().min(50).max(60_000).default(10_000),
  /** Attempts to push one new approval to the chat (the first included). */
  sendAttempts: z.number().int().min(1).max(10).default(3),
  /** Pause before a retry, times the attempt number (a 429's retry_after wins). */
  sendRetryDelayMs: z.number().int().min(1).max(600_000).default(2_000),
  /** How many update ids are remembered for de-duplication; older ids than the oldest kept are treated as seen. */
  maxSeenUpdates: z.number().int().min(10).max(1_000_000).default(10_000),
  media: z
    .strictObject({
      maxBytes: z.number().int().min(1).max(50 * 1024 * 1024).default(10 * 1024 * 1024),
      types: z.array(z.enum(["image/jpeg", "image/png", "image/gif", "image/webp", "application/pdf", "text/plain"])).default(["image/jpeg", "image/png", "image/webp", "application/pdf"]),
    })
    .prefault({}),
});

export type MessengerConfig = z.output<typeof messengerConfig>;
