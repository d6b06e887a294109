import type { CostEvent } from "./tokens.ts";

/** A budget threshold crossed by an agent on a UTC day (published once per agent, day and level). */
export interface BudgetAlertPayload {
  agentId: string;
  day: string;
  level: "warning" | "exceeded";
  spentCents: number;
  budgetCents: number;
}

/** Events the usage plugin publishes (public: forwarded to SSE clients). */
export type UsageEvents = {
  "usage.cost.recorded": CostEvent;
  "usage.budget.alert": BudgetAlertPayload;
};

declare module "@muster/plugin" {
  interface MusterEvents extends UsageEvents {}
}
