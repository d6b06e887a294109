import { z } from "@muster/plugin";

/** `config.chat` in muster.config.json. The rate limit is the spec's pair (DESIGN §6). */
export const chatConfig = z.strictObject({
  /**
   * How long a request waits for one agent turn (DESIGN §14.2: 120 s) before it answers 504
   * `GATEWAY_TIMEOUT`; the chat turn is not aborted then but goes on in the background.
   */
  turnTimeoutMs: z.number().int().min(100).max(30 * 60_000).default(120_000),
  /**
   * The longest a chat turn (one `POST /api/chat`, every agent of a party included) may run,
   * waited for or in the background, before it is aborted on the gateway: a human has the
   * gateway's own approval time (30 min) to decide an exec approval the agent waits on.
   */
  turnMaxMs: z.number().int().min(100).max(24 * 3_600_000).default(30 * 60_000),
  /**
   * Team mode: how long `POST /api/chat/turns/:id/abort` through one instance waits for the
   * instance running the turn to confirm how it ended (then 504 `CHAT_TURN_ABORT_TIMEOUT`).
   */
  abortConfirmMs: z.number().int().min(100).max(120_000).default(10_000),
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
