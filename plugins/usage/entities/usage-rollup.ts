import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * Per-agent totals per quarter hour (UTC), updated in the same transaction as each insert.
 * Quarter hours because every time zone's midnight falls on one, so "today" in any `?tz=`
 * is a range of buckets; summaries never scan the events.
 */
export const UsageRollup = defineEntity({
  name: "UsageRollup",
  tableName: "usage_rollup",
  properties: {
    agentId: p.string().primary(),
    /** Epoch milliseconds / 900,000. */
    bucket: p.integer().primary(),
    inputTokens: p.integer(),
    outputTokens: p.integer(),
    costCents: p.integer(),
    events: p.integer(),
  },
  indexes: [{ name: "usage_rollup_bucket", properties: ["bucket"] }],
});

/** All-time per-agent totals, updated with each insert (the summary's `allTime`). */
export const UsageTotals = defineEntity({
  name: "UsageTotals",
  tableName: "usage_totals",
  properties: {
    agentId: p.string().primary(),
    events: p.integer(),
    costCents: p.integer(),
  },
});

export type UsageRollupRow = EntityRow<typeof UsageRollup>;
