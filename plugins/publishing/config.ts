import { DEFAULT_BLOCKED_RANGES, isCidr, z } from "@muster/plugin";

const baseUrl = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ""));

/** `config.publishing` in muster.config.json. Every platform's base URL is configuration (tests point them at local fakes). */
export const publishingConfig = z.strictObject({
  linkedin: z
    .strictObject({
      /** The professional network's API root: `/v2/userinfo` and `/rest/...` are under it. */
      apiBaseUrl: baseUrl.default("https://api.linkedin.com"),
      /** The `LinkedIn-Version` header of the REST API (YYYYMM). */
      version: z.string().regex(/^\d{6}$/).default("202506"),
    })
    .prefault({}),
  x: z.strictObject({ apiBaseUrl: baseUrl.default("https://api.x.com") }).prefault({}),
  /** How long one platform request may take; a post that times out is recorded `unknown`, never re-sent. */
  requestTimeoutMs: z.number().int().min(50).max(120_000).default(15_000),
  /** Attempts per outbox entry on 429/5xx answers (the first included). */
  maxAttempts: z.number().int().min(1).max(10).default(5),
  /** Backoff after a 5xx: base × 2^(attempt-1), capped at maxRetryDelayMs. */
  retryBaseDelayMs: z.number().int().min(1).max(600_000).default(2_000),
  maxRetryDelayMs: z.number().int().min(1).max(3_600_000).default(5 * 60_000),
  /** A 429 whose Retry-After asks for a longer wait than this marks the entry failed instead of holding it. */
  maxRetryAfterMs: z.number().int().min(1).max(24 * 3_600_000).default(15 * 60_000),
  /** Largest image fetched from an `imageUrl`/media URL to upload. */
  maxImageBytes: z.number().int().min(1024).max(50 * 1024 * 1024).default(8 * 1024 * 1024),
  /**
   * CIDR blocks a media URL may not resolve to: loopback, private, link-local and other
   * special-purpose ranges by default, so an agent's image URL cannot make Muster read a
   * local or internal service and post its answer publicly. Narrowing it is an explicit decision.
   */
  blockedAddressRanges: z.array(z.string().refine(isCidr, "must be a CIDR block such as 10.0.0.0/8")).default([...DEFAULT_BLOCKED_RANGES]),
});

export type PublishingConfig = z.output<typeof publishingConfig>;
