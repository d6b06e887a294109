import { z } from "@muster/plugin";

/** `config.chat` in muster.config.json. The rate limit is the spec's pair (DESIGN §6). */
export const chatConfig = z.strictObject({
  /** How long one agent turn may take before it is aborted and answered 504 `GATEWAY_TIMEOUT` (DESIGN §14.2: 120 s). */
  turnTimeoutMs: z.number().int().min(100).max(30 * 60_000).default(120_000),
  /** A party stops starting turns once its replies used this many output tokens (`truncated: true`). */
  partyMaxOutputTokens: z.number().int().min(1).max(10_000_000).default(20_000),
  /**
   * No longer read: known agents come from the agents plugin, whose `agentsRefreshMs` sets how
   * often agents.list is re-read. Still accepted so that existing configuration files load.
   */
  agentsRefreshMs: z.number().int().min(1_000).max(3_600_000).default(60_000),
  rateLimit: z
    .strictObject({
      concurrent: z.number().int().min(1).max(1_000).default(5),
      perMinute: z.number().int().min(1).max(10_000).default(20),
    })
    .prefault({}),
});

export type ChatConfig = z.output<typeof chatConfig>;
