import { z } from "@muster/plugin";

/** One row of the price table: USD per million tokens for models whose name starts with `prefix`. */
const price = z.strictObject({
  prefix: z.string().min(1).max(200),
  inputUsdPerMillion: z.number().min(0).max(100_000),
  outputUsdPerMillion: z.number().min(0).max(100_000),
});

/**
 * `config.usage` in muster.config.json. The ONE price table every cost event is priced with
 * (chat, council, cron, dispatch and POST /api/usage): a prefix matches the model name with
 * or without its `provider/` part (`fake/fake-model` and `fake-model` both price
 * `fake/fake-model`), the longest matching prefix wins, an unknown model costs 0 (`priced: false`).
 */
export const usageConfig = z.strictObject({
  prices: z.array(price).max(1000).default([
    { prefix: "claude-opus-4", inputUsdPerMillion: 15, outputUsdPerMillion: 75 },
    { prefix: "claude-sonnet-4", inputUsdPerMillion: 3, outputUsdPerMillion: 15 },
    { prefix: "claude-haiku-4", inputUsdPerMillion: 1, outputUsdPerMillion: 5 },
  ]),
  /** Daily budgets in cents per agent id (UTC day). PUT /api/usage/budgets/{agentId} overrides them. */
  budgets: z.record(z.string().min(1).max(128), z.number().int().min(0).max(1_000_000_000)).default({}),
  /** Largest token count one event may carry (input and output each); more is refused with 400 USAGE_TOKENS_OUT_OF_RANGE. */
  maxTokensPerEvent: z.number().int().min(1).max(1_000_000_000).default(100_000_000),
});

export type UsageConfig = z.output<typeof usageConfig>;
export type PriceRow = UsageConfig["prices"][number];
