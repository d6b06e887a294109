import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** A daily budget set through the API; it overrides `config.usage.budgets` for the agent. */
export const UsageBudget = defineEntity({
  name: "UsageBudget",
  tableName: "usage_budgets",
  properties: {
    agentId: p.string().primary(),
    dailyCents: p.integer(),
    updatedAt: p.string(),
  },
});

/** A threshold already announced for an agent on a UTC day (so it is announced once). */
export const UsageBudgetAlert = defineEntity({
  name: "UsageBudgetAlert",
  tableName: "usage_budget_alerts",
  properties: {
    agentId: p.string().primary(),
    day: p.string().primary(),
    level: p.string().primary(),
    createdAt: p.string(),
  },
});

export type UsageBudgetRow = EntityRow<typeof UsageBudget>;
