import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** One spec Cost event (camelCase columns); summaries read the rollup, never this table. */
export const CostEventEntity = defineEntity({
  name: "UsageCostEvent",
  tableName: "usage_cost_events",
  properties: {
    id: p.string().primary(),
    agentId: p.string(),
    model: p.string(),
    action: p.enum(["session", "task", "search", "api_call"]),
    inputTokens: p.integer(),
    outputTokens: p.integer(),
    estimatedCostCents: p.integer(),
    priced: p.boolean(),
    taskId: p.string().nullable(),
    timestamp: p.string(),
  },
  indexes: [{ name: "usage_cost_events_timestamp", properties: ["timestamp"] }],
});

export type CostEventRow = EntityRow<typeof CostEventEntity>;
