// The usage page's figures: the SDK's answer types, money and token formats, and the pivot of
// the per-day points (day × agent × model) into chart series by agent or by model.
import type { ChartSeries, Muster } from "@muster/console";

export type UsageSeries = Awaited<ReturnType<Muster["getUsageSeries"]>>;
export type UsagePoint = UsageSeries["points"][number];
export type BudgetStatus = Awaited<ReturnType<Muster["getUsageBudgets"]>>["budgets"][number];

/** The live events that change these figures (a cost recorded, a budget threshold crossed). */
export const USAGE_EVENTS = ["usage.*"];

const money = new Intl.NumberFormat(undefined, { style: "currency", currency: "USD" });
const count = new Intl.NumberFormat();
export const dollars = (cents: number): string => money.format(cents / 100);
export const tokens = (value: number): string => count.format(Math.round(value));

export type Measure = "cost" | "tokens";
export type GroupBy = "agentId" | "model";

const valueOf = (point: UsagePoint, measure: Measure) => (measure === "cost" ? point.costCents : point.inputTokens + point.outputTokens);

/** The most series a chart draws; the rest are summed as "Other" so colours stay distinguishable. */
const MOST_SERIES = 7;

/** One series per agent (or model), largest first, one value per date. */
export function pivot(series: UsageSeries, groupBy: GroupBy, measure: Measure): ChartSeries[] {
  const index = new Map(series.dates.map((date, position) => [date, position]));
  const byKey = new Map<string, number[]>();
  for (const point of series.points) {
    const values = byKey.get(point[groupBy]) ?? series.dates.map(() => 0);
    values[index.get(point.date) ?? 0]! += valueOf(point, measure);
    byKey.set(point[groupBy], values);
  }
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const ranked = [...byKey].map(([label, values]) => ({ label, values })).sort((a, b) => sum(b.values) - sum(a.values) || a.label.localeCompare(b.label));
  if (ranked.length <= MOST_SERIES) return ranked;
  const other = ranked.slice(MOST_SERIES - 1).reduce((totals, one) => totals.map((value, position) => value + (one.values[position] ?? 0)), series.dates.map(() => 0));
  return [...ranked.slice(0, MOST_SERIES - 1), { label: `Other (${ranked.length - MOST_SERIES + 1})`, values: other }];
}
