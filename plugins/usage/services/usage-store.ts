import type { Database } from "@muster/plugin";
import type { CostEvent } from "../tokens.ts";

const QUARTER_HOUR_MS = 900_000;
export const bucketOf = (ms: number) => Math.floor(ms / QUARTER_HOUR_MS);

export interface Totals {
  inputTokens: number;
  outputTokens: number;
  costCents: number;
  events: number;
}

type Statement = ReturnType<Database["sql"]["prepare"]>;

/**
 * `usage_*` tables. An event, its quarter-hour rollup and the all-time totals are written in
 * ONE synchronous transaction, so summaries (which read only the aggregates) always agree
 * with the events and never scan them. Budget alerts are claimed with one conditional insert
 * so each is announced once however many requests cross the threshold together.
 */
export class UsageStore {
  private readonly db: () => Database;
  private statements?: Record<"event" | "rollup" | "totals" | "alert" | "range" | "agentRange" | "allTime" | "budget" | "setBudget", Statement>;
  private insertTx?: (event: CostEvent) => void;
  constructor(db: () => Database) {
    this.db = db;
  }

  private prepared() {
    const sql = this.db().sql;
    this.statements ??= {
      event: sql.prepare(
        `INSERT INTO usage_cost_events (id, agentId, model, action, inputTokens, outputTokens, estimatedCostCents, priced, taskId, timestamp)
         VALUES (@id, @agentId, @model, @action, @inputTokens, @outputTokens, @estimatedCostCents, @priced, @taskId, @timestamp)`,
      ),
      rollup: sql.prepare(
        `INSERT INTO usage_rollup (agentId, bucket, inputTokens, outputTokens, costCents, events) VALUES (@agentId, @bucket, @inputTokens, @outputTokens, @estimatedCostCents, 1)
         ON CONFLICT (agentId, bucket) DO UPDATE SET inputTokens = inputTokens + excluded.inputTokens, outputTokens = outputTokens + excluded.outputTokens,
           costCents = costCents + excluded.costCents, events = events + 1`,
      ),
      totals: sql.prepare(
        `INSERT INTO usage_totals (agentId, events, costCents) VALUES (@agentId, 1, @estimatedCostCents)
         ON CONFLICT (agentId) DO UPDATE SET events = events + 1, costCents = costCents + excluded.costCents`,
      ),
      alert: sql.prepare("INSERT OR IGNORE INTO usage_budget_alerts (agentId, day, level, createdAt) VALUES (@agentId, @day, @level, @now)"),
      range: sql.prepare(
        `SELECT agentId, sum(inputTokens) AS inputTokens, sum(outputTokens) AS outputTokens, sum(costCents) AS costCents, sum(events) AS events
         FROM usage_rollup INDEXED BY usage_rollup_bucket WHERE bucket >= @from AND bucket < @to GROUP BY agentId`,
      ),
      agentRange: sql.prepare("SELECT coalesce(sum(costCents), 0) AS costCents FROM usage_rollup WHERE agentId = @agentId AND bucket >= @from AND bucket < @to"),
      allTime: sql.prepare("SELECT coalesce(sum(events), 0) AS events, coalesce(sum(costCents), 0) AS costCents FROM usage_totals WHERE 1 = @one"),
      budget: sql.prepare("SELECT dailyCents FROM usage_budgets WHERE agentId = @agentId"),
      setBudget: sql.prepare(
        "INSERT INTO usage_budgets (agentId, dailyCents, updatedAt) VALUES (@agentId, @dailyCents, @now) ON CONFLICT (agentId) DO UPDATE SET dailyCents = excluded.dailyCents, updatedAt = excluded.updatedAt",
      ),
    };
    return this.statements;
  }

  insert(event: CostEvent): void {
    const s = this.prepared();
    this.insertTx ??= this.db().sql.transaction((e: CostEvent) => {
      const row = { ...e, priced: e.priced ? 1 : 0, bucket: bucketOf(Date.parse(e.timestamp)) };
      s.event.run(row);
      s.rollup.run(row);
      s.totals.run(row);
    });
    this.insertTx(event);
  }

  /** Per-agent totals of events in [startMs, endMs); both on quarter-hour boundaries. */
  byAgent(startMs: number, endMs: number): Array<Totals & { agentId: string }> {
    return this.prepared().range.all({ from: bucketOf(startMs), to: bucketOf(endMs) }) as Array<Totals & { agentId: string }>;
  }

  agentCost(agentId: string, startMs: number, endMs: number): number {
    return (this.prepared().agentRange.get({ agentId, from: bucketOf(startMs), to: bucketOf(endMs) }) as { costCents: number }).costCents;
  }

  allTime(): { events: number; costCents: number } {
    return this.prepared().allTime.get({ one: 1 }) as { events: number; costCents: number };
  }

  budget(agentId: string): number | undefined {
    return (this.prepared().budget.get({ agentId }) as { dailyCents: number } | undefined)?.dailyCents;
  }

  setBudget(agentId: string, dailyCents: number, now: string): void {
    this.prepared().setBudget.run({ agentId, dailyCents, now });
  }

  /** True for the one caller that first claims this alert. */
  claimAlert(agentId: string, day: string, level: string, now: string): boolean {
    return this.prepared().alert.run({ agentId, day, level, now }).changes === 1;
  }
}
