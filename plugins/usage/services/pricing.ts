import type { PriceRow } from "../config.ts";

/**
 * Prices token counts with the configured table: the longest prefix matching the model
 * name (without a `provider/` prefix) wins; no match → 0 cents and `priced: false`.
 */
export function priceEvent(prices: readonly PriceRow[], model: string, inputTokens: number, outputTokens: number): { cents: number; priced: boolean } {
  const name = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  let best: PriceRow | undefined;
  for (const row of prices) if (name.startsWith(row.prefix) && (!best || row.prefix.length > best.prefix.length)) best = row;
  if (!best) return { cents: 0, priced: false };
  return { cents: Math.round(((inputTokens * best.inputUsdPerMillion + outputTokens * best.outputUsdPerMillion) / 1e6) * 100), priced: true };
}
