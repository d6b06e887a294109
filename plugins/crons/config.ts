import { z } from "@muster/plugin";

/** `config.crons` in muster.config.json. */
export const cronsConfig = z.strictObject({
  /** How long one run may take before it is recorded `error` (GATEWAY_TIMEOUT). */
  runTimeoutMs: z.number().int().min(1_000).max(24 * 60 * 60_000).default(10 * 60_000),
  /** Most jobs stored at once. */
  maxJobs: z.number().int().min(1).max(100_000).default(10_000),
  /**
   * Shifts the crons clock by this many milliseconds. For tests only (a schedule due in a
   * second instead of a minute); leave 0 in production.
   */
  clockOffsetMs: z.number().int().min(-366 * 86_400_000).max(366 * 86_400_000).default(0),
});

export type CronsConfig = z.output<typeof cronsConfig>;
