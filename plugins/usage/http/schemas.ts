import { z, schemas } from "@muster/plugin";

export const costEventSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  model: z.string(),
  action: z.enum(["session", "task", "search", "api_call"]),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  estimatedCostCents: z.number().int(),
  priced: z.boolean(),
  taskId: z.string().nullable(),
  timestamp: z.string(),
});

/** Token counts are checked by the service (0 to config.usage.maxTokensPerEvent, 400 USAGE_TOKENS_OUT_OF_RANGE). */
export const recordUsageBody = z.strictObject({
  agentId: schemas.id,
  model: z.string().trim().min(1).max(200),
  action: z.enum(["session", "task", "search", "api_call"]),
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  taskId: z.string().min(1).max(500).nullable().optional(),
  /** When the usage happened (defaults to now); at most a minute ahead of the server clock. */
  timestamp: schemas.timestamp.refine((v) => Date.parse(v) <= Date.now() + 60_000, "must not be in the future").optional(),
});

export const usageEventResponse = z.object({ ok: z.literal(true), event: costEventSchema });

export const usageSummaryQuery = z.strictObject({ tz: z.string().min(1).max(100).optional() });

export const usageSummaryResponse = z.object({
  ok: z.literal(true),
  today: z.object({
    date: z.string(),
    timeZone: z.string(),
    totalInputTokens: z.number().int(),
    totalOutputTokens: z.number().int(),
    estimatedCostCents: z.number().int(),
    byAgent: z.record(z.string(), z.object({ input: z.number().int(), output: z.number().int(), cost: z.number().int() })),
  }),
  allTime: z.object({ totalEvents: z.number().int(), estimatedCostCents: z.number().int() }),
});

export const budgetParams = z.strictObject({ agentId: schemas.id });
export const setBudgetBody = z.strictObject({ dailyCents: z.number().int().min(0).max(1_000_000_000) });
export const budgetResponse = z.object({
  ok: z.literal(true),
  budget: z.object({ agentId: z.string(), spentCents: z.number().int(), budgetCents: z.number().int().nullable(), exceeded: z.boolean() }),
});

export const usageSeriesQuery = z.strictObject({
  /** Days back from today, today included (1 to 90, default 14). */
  days: z.coerce.number().int().min(1).max(90).default(14),
  tz: z.string().min(1).max(100).optional(),
});
export const usageSeriesResponse = z.object({
  ok: z.literal(true),
  timeZone: z.string(),
  dates: z.array(z.string()),
  points: z.array(
    z.object({
      date: z.string(),
      agentId: z.string(),
      model: z.string(),
      inputTokens: z.number().int(),
      outputTokens: z.number().int(),
      costCents: z.number().int(),
      events: z.number().int(),
    }),
  ),
});
export const budgetListResponse = z.object({ ok: z.literal(true), budgets: z.array(budgetResponse.shape.budget) });
