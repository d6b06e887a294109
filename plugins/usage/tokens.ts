import { token } from "@muster/plugin";

export type CostAction = "session" | "task" | "search" | "api_call";

/** What a caller records: the spec's Cost event input (camelCase). */
export interface NewCostEvent {
  agentId: string;
  model: string;
  action: CostAction;
  inputTokens?: number;
  outputTokens?: number;
  taskId?: string | null;
  /** ISO timestamp; defaults to now. */
  timestamp?: string;
}

/** The spec's Cost event (camelCase) plus `priced` (false when the model is not in the price table). */
export interface CostEvent {
  id: string;
  agentId: string;
  model: string;
  action: CostAction;
  inputTokens: number;
  outputTokens: number;
  estimatedCostCents: number;
  priced: boolean;
  taskId: string | null;
  timestamp: string;
}

/** An agent's spend today (UTC day) against its optional daily budget. */
export interface BudgetStatus {
  agentId: string;
  spentCents: number;
  /** Null when the agent has no budget. */
  budgetCents: number | null;
  exceeded: boolean;
}

/** Cost events and per-agent daily budgets (DESIGN §14.7). */
export interface UsageLedger {
  /** Prices and stores one cost event (validated; throws 400 codes on bad counts). */
  record(event: NewCostEvent): Promise<CostEvent>;
  /** Throws 409 BUDGET_EXCEEDED when the agent has spent its whole daily budget today. */
  checkBudget(agentId: string): Promise<void>;
  budgetStatus(agentId: string): Promise<BudgetStatus>;
}

/** The `usage` plugin's ledger. Depend on (or optionally on) `usage` to use it. */
export const USAGE = token<UsageLedger>("usage.ledger");
