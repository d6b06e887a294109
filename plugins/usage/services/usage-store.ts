import { defineStore, raw, type Database, type EntityStore } from "@muster/plugin";
import { UsageBudget } from "../entities/usage-budget.ts";
import { UsageRollup, UsageTotals } from "../entities/usage-rollup.ts";
import type { CostEvent } from "../tokens.ts";

const budgets = defineStore(UsageBudget, { key: "agentId" });
const rollup = defineStore(UsageRollup, { key: "agentId" });
const totals = defineStore(UsageTotals, { key: "agentId" });

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
 * `usage_*` tables: reads over the store kit and its query builder. Raw SQL only where a
 * statement needs it, each prepared once: an event, its quarter-hour rollup and the
 * all-time totals are written in ONE synchronous transaction (upserts that add to the
 * stored sums), so summaries (which read only the aggregates) always agree with the events
 * and never scan them; budget alerts are claimed with one conditional insert so each is
 * announced once however many requests cross the threshold together; a budget is set with
 * one upsert; and the day's per-agent sums carry an index hint (see `byAgent`).
 */
export class UsageStore {
  private readonly db: () => Database;
  private readonly budgets: EntityStore<typeof UsageBudget, "agentId">;
  private readonly rollup: EntityStore<typeof UsageRollup, "agentId">;
  private readonly totals: EntityStore<typeof UsageTotals, "agentId">;
  private statements?: Record<"event" | "rollup" | "totals" | "alert" | "range" | "setBudget" | "series", Statement>;
  private insertTx?: (event: CostEvent) => void;
  constructor(db: () => Database) {
    this.db = db;
    this.budgets = budgets.on(db);
    this.rollup = rollup.on(db);
    this.totals = totals.on(db);
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
      // Grouped in SQL by agent, model and quarter hour, so the answer is small however many events the window holds.
      series: sql.prepare(
        `SELECT agentId, model, CAST(strftime('%s', timestamp) AS INTEGER) / 900 AS bucket, sum(inputTokens) AS inputTokens, sum(outputTokens) AS outputTokens,
           sum(estimatedCostCents) AS costCents, count(*) AS events
         FROM usage_cost_events WHERE timestamp >= @from AND timestamp < @to GROUP BY agentId, model, bucket`,
      ),
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

  /**
   * Per-agent totals of events in [startMs, endMs); both on quarter-hour boundaries. Raw:
   * `INDEXED BY usage_rollup_bucket` pins the plan to a range scan of the day's buckets,
   * a hint the query builder cannot express.
   */
  async byAgent(startMs: number, endMs: number): Promise<Array<Totals & { agentId: string }>> {
    return this.prepared().range.all({ from: bucketOf(startMs), to: bucketOf(endMs) }) as Array<Totals & { agentId: string }>;
  }

  /**
   * Totals by agent, model and quarter hour of the events in [startMs, endMs). Raw: the
   * rollup has no model, so this reads the events (over their timestamp index, a bounded
   * window: GET /api/usage/series allows at most 90 days) and buckets them in SQL.
   */
  async series(startMs: number, endMs: number): Promise<Array<Totals & { agentId: string; model: string; bucket: number }>> {
    return this.prepared().series.all({ from: new Date(startMs).toISOString(), to: new Date(endMs).toISOString() }) as Array<Totals & { agentId: string; model: string; bucket: number }>;
  }

  /** Every budget set through the API. */
  async allBudgets(): Promise<Array<{ agentId: string; dailyCents: number }>> {
    return (await this.budgets.list({ limit: 10_000 })).map(({ agentId, dailyCents }) => ({ agentId, dailyCents }));
  }

  async agentCost(agentId: string, startMs: number, endMs: number): Promise<number> {
    const [row] = await this.rollup.qb().select(raw("coalesce(sum(costCents), 0) AS costCents")).where({ agentId, bucket: { $gte: bucketOf(startMs), $lt: bucketOf(endMs) } }).execute<{ costCents: number }[]>("all", false);
    return row!.costCents;
  }

  async allTime(): Promise<{ events: number; costCents: number }> {
    const [row] = await this.totals.qb().select([raw("coalesce(sum(events), 0) AS events"), raw("coalesce(sum(costCents), 0) AS costCents")]).execute<{ events: number; costCents: number }[]>("all", false);
    return row!;
  }

  async budget(agentId: string): Promise<number | undefined> {
    return (await this.budgets.get(agentId))?.dailyCents;
  }

  /** Raw: one upsert (`ON CONFLICT DO UPDATE`), so two settings of one budget cannot collide on its key. */
  setBudget(agentId: string, dailyCents: number, now: string): void {
    this.prepared().setBudget.run({ agentId, dailyCents, now });
  }

  /** True for the one caller that first claims this alert. */
  claimAlert(agentId: string, day: string, level: string, now: string): boolean {
    return this.prepared().alert.run({ agentId, day, level, now }).changes === 1;
  }
}
