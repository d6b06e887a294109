import { z } from "@muster/plugin";

/** `config.council` in muster.config.json. The rate limit is the spec's pair (DESIGN §6). */
export const councilConfig = z.strictObject({
  /** How long one agent turn (position, proposal or vote) may take before the session fails. */
  turnTimeoutMs: z.number().int().min(100).max(30 * 60_000).default(120_000),
  rateLimit: z
    .strictObject({
      concurrent: z.number().int().min(1).max(100).default(1),
      perMinute: z.number().int().min(1).max(1_000).default(3),
    })
    .prefault({}),
});

export type CouncilConfig = z.output<typeof councilConfig>;
