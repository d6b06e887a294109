import { z } from "@muster/plugin";

/** The `stream` section of `muster.config.json`. */
export const streamConfigSchema = z.strictObject({
  /** Keep-alive `ping` frame interval (the spec's 30 s). */
  pingIntervalMs: z.number().int().min(10).max(3_600_000).default(30_000),
  /**
   * Concurrent SSE connections; one more is answered 503 `STREAM_TOO_MANY_CLIENTS`. The
   * default holds the 1,000-client fan-out target (bench:workspace) with room for the UI.
   */
  maxClients: z.number().int().min(1).max(100_000).default(1_100),
  /** Frames kept for `Last-Event-ID` replay (the newest ones). */
  replaySize: z.number().int().min(0).max(100_000).default(1_000),
  /** Byte budget of the replay ring; the oldest frames go first when it is exceeded. */
  replayMaxBytes: z.number().int().min(0).max(256 * 1024 * 1024).default(1024 * 1024),
  /**
   * Unsent bytes (Node buffer plus socket) above which a client counts as behind. A client
   * that stays behind for `maxLagMs` is disconnected, so it never holds memory or delays others.
   */
  maxBufferedBytes: z.number().int().min(1024).max(256 * 1024 * 1024).default(1024 * 1024),
  /** How long a client may stay behind before it is disconnected (a burst alone does not count). */
  maxLagMs: z.number().int().min(10).max(600_000).default(10_000),
  /** Unsent bytes that disconnect a client at once, whatever its lag (the per-client memory bound). */
  maxBufferedBytesHard: z.number().int().min(1024).max(1024 * 1024 * 1024).default(16 * 1024 * 1024),
});

export type StreamConfig = z.output<typeof streamConfigSchema>;
