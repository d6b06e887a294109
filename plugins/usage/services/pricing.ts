import type { PriceRow } from "../config.ts";

/**
 * Prices token counts with the configured table. A row matches when its prefix starts the
 * model name as given (`anthropic/claude-opus-4-6` matches `anthropic/claude-opus-4`) or
 * the name without its `provider/` part (it matches `claude-opus-4` too), so one table
 * serves the gateway's `provider/model` names and bare ones alike. The longest matching
 * prefix wins; no match → 0 cents and `priced: false`.
 */
export function priceEvent(prices: readonly PriceRow[], model: string, inputTokens: number, outputTokens: number): { cents: number; priced: boolean } {
  const bare = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  let best: PriceRow | undefined;
  for (const row of prices) {
    const matches = model.startsWith(row.prefix) || bare.startsWith(row.prefix);
    if (matches && (!best || row.prefix.length > best.prefix.length)) best = row;
  }
  if (!best) return { cents: 0, priced: false };
  return { cents: Math.round(((inputTokens * best.inputUsdPerMillion + outputTokens * best.outputUsdPerMillion) / 1e6) * 100), priced: true };
}
