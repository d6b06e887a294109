import { z } from "@muster/plugin";

export const emptyQuery = z.strictObject({});

export const sessionsResponse = z.object({
  ok: z.literal(true),
  sessions: z.array(z.object({ key: z.string(), agentId: z.string().nullable(), lastActivity: z.number().int().nullable(), model: z.string().nullable(), gateway: z.string().optional() })),
  /** True when the gateway had more sessions than the configured cap (`gateway.maxRows`). */
  truncated: z.boolean(),
});

export const cronsResponse = z.object({
  ok: z.literal(true),
  jobs: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string().nullable(),
      agentId: z.string().nullable(),
      cron: z.string().nullable(),
      timezone: z.string().nullable(),
      enabled: z.boolean(),
      nextRun: z.string().nullable(),
      lastRun: z.string().nullable(),
    }),
  ),
  truncated: z.boolean(),
});
