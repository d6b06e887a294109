import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-usage",
    up: [
      `CREATE TABLE usage_cost_events (
        id TEXT PRIMARY KEY,
        agentId TEXT NOT NULL,
        model TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('session', 'task', 'search', 'api_call')),
        inputTokens INTEGER NOT NULL,
        outputTokens INTEGER NOT NULL,
        estimatedCostCents INTEGER NOT NULL,
        priced INTEGER NOT NULL,
        taskId TEXT,
        timestamp TEXT NOT NULL
      )`,
      "CREATE INDEX usage_cost_events_timestamp ON usage_cost_events (timestamp)",
      `CREATE TABLE usage_rollup (
        agentId TEXT NOT NULL,
        bucket INTEGER NOT NULL,
        inputTokens INTEGER NOT NULL,
        outputTokens INTEGER NOT NULL,
        costCents INTEGER NOT NULL,
        events INTEGER NOT NULL,
        PRIMARY KEY (agentId, bucket)
      )`,
      "CREATE INDEX usage_rollup_bucket ON usage_rollup (bucket)",
      `CREATE TABLE usage_totals (agentId TEXT PRIMARY KEY, events INTEGER NOT NULL, costCents INTEGER NOT NULL)`,
      `CREATE TABLE usage_budgets (agentId TEXT PRIMARY KEY, dailyCents INTEGER NOT NULL, updatedAt TEXT NOT NULL)`,
      `CREATE TABLE usage_budget_alerts (
        agentId TEXT NOT NULL,
        day TEXT NOT NULL,
        level TEXT NOT NULL,
        createdAt TEXT NOT NULL,
        PRIMARY KEY (agentId, day, level)
      )`,
    ],
  }),
];
