import { z } from "@muster/plugin";

/** `config.dispatch` in muster.config.json. The rate limit is DESIGN §14.6's pair. */
export const dispatchConfig = z.strictObject({
  /** How long an agent may work on a dispatched task before the run is aborted and the dispatch fails. */
  runTimeoutMs: z.number().int().min(100).max(6 * 3_600_000).default(30 * 60_000),
  rateLimit: z
    .strictObject({
      concurrent: z.number().int().min(1).max(1_000).default(3),
      perMinute: z.number().int().min(1).max(10_000).default(10),
    })
    .prefault({}),
});

export type DispatchConfig = z.output<typeof dispatchConfig>;
