import { atomically, defineStore, raw, type Database, type EntityStore } from "@muster/plugin";
import { UsageBudget, UsageBudgetAlert } from "../entities/usage-budget.ts";
import { UsageRollup, UsageTotals } from "../entities/usage-rollup.ts";
import type { CostEvent } from "../tokens.ts";

const budgets = defineStore(UsageBudget, { key: "agentId" });
const alerts = defineStore(UsageBudgetAlert, { key: "agentId" });
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

// The statements of the atomic steps, in SQL both engines read (quoted camelCase names, `?`).
// The upserts name the stored row by its table (PostgreSQL finds a bare column ambiguous
// beside `excluded`; SQLite reads both forms alike).
const INSERT_EVENT = `INSERT INTO usage_cost_events (id, "agentId", model, action, "inputTokens", "outputTokens", "estimatedCostCents", priced, "taskId", "timestamp") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const ADD_TO_ROLLUP = `INSERT INTO usage_rollup ("agentId", bucket, "inputTokens", "outputTokens", "costCents", events) VALUES (?, ?, ?, ?, ?, 1)
  ON CONFLICT ("agentId", bucket) DO UPDATE SET "inputTokens" = usage_rollup."inputTokens" + excluded."inputTokens", "outputTokens" = usage_rollup."outputTokens" + excluded."outputTokens",
    "costCents" = usage_rollup."costCents" + excluded."costCents", events = usage_rollup.events + 1`;
const ADD_TO_TOTALS = `INSERT INTO usage_totals ("agentId", events, "costCents") VALUES (?, 1, ?)
  ON CONFLICT ("agentId") DO UPDATE SET events = usage_totals.events + 1, "costCents" = usage_totals."costCents" + excluded."costCents"`;

/**
 * The day's per-agent sums, the benchmarked `GET /api/usage` (issue 12). On SQLite
 * `INDEXED BY usage_rollup_bucket` pins the plan to a range scan of the day's buckets whatever
 * the statistics say (the primary key, agent first, would also serve the GROUP BY); the plan
 * is the same as before this statement moved to `atomically` (EXPLAIN QUERY PLAN: SEARCH
 * USING INDEX usage_rollup_bucket, then a temporary B-tree for the GROUP BY). PostgreSQL has
 * no such hint and plans from its own statistics.
 */
const rangeSql = (hint: string) =>
  `SELECT "agentId", sum("inputTokens") AS "inputTokens", sum("outputTokens") AS "outputTokens", sum("costCents") AS "costCents", sum(events) AS events
   FROM usage_rollup${hint} WHERE bucket >= ? AND bucket < ? GROUP BY "agentId"`;
const RANGE = { sqlite: rangeSql(" INDEXED BY usage_rollup_bucket"), postgresql: rangeSql("") };

/**
 * The events of a window by agent, model and quarter hour, grouped in SQL so the answer is
 * small however many events the window holds. The quarter hour of a stored ISO timestamp is
 * each engine's own date arithmetic: SQLite's `strftime('%s')` (whole seconds), PostgreSQL's
 * `extract(epoch …)` floored; both give epoch seconds / 900, rounded down.
 */
const seriesSql = (bucket: string) =>
  `SELECT "agentId", model, ${bucket} AS bucket, sum("inputTokens") AS "inputTokens", sum("outputTokens") AS "outputTokens",
     sum("estimatedCostCents") AS "costCents", count(*) AS events
   FROM usage_cost_events WHERE "timestamp" >= ? AND "timestamp" < ? GROUP BY "agentId", model, bucket`;
const SERIES = {
  sqlite: seriesSql(`CAST(strftime('%s', "timestamp") AS INTEGER) / 900`),
  postgresql: seriesSql(`CAST(floor(extract(epoch FROM CAST("timestamp" AS timestamptz)) / 900) AS INTEGER)`),
};

/** PostgreSQL's `sum`/`count` are bigints its driver reads as strings; SQLite's are numbers. */
const counted = <R extends object>(row: R, fields: readonly (keyof R & string)[]): R => {
  const out = { ...row };
  for (const field of fields) out[field] = Number(out[field]) as R[typeof field];
  return out;
};
const SUMS = ["inputTokens", "outputTokens", "costCents", "events"] as const;

/**
 * `usage_*` tables, on SQLite and PostgreSQL: reads over the store kit and its query builder,
 * raw SQL only where a statement needs it. An event, its quarter-hour rollup and the all-time
 * totals are written in ONE atomic step (`atomically`: upserts that add to the stored sums),
 * so summaries (which read only the aggregates) always agree with the events and never scan
 * them; budget alerts are claimed with one conditional insert so each is announced once
 * however many requests cross the threshold together; a budget is set with one upsert. On
 * SQLite the steps run synchronously over statements prepared once, as before.
 */
export class UsageStore {
  private readonly db: () => Database;
  private readonly budgets: EntityStore<typeof UsageBudget, "agentId">;
  private readonly alerts: EntityStore<typeof UsageBudgetAlert, "agentId">;
  private readonly rollup: EntityStore<typeof UsageRollup, "agentId">;
  private readonly totals: EntityStore<typeof UsageTotals, "agentId">;
  constructor(db: () => Database) {
    this.db = db;
    this.budgets = budgets.on(db);
    this.alerts = alerts.on(db);
    this.rollup = rollup.on(db);
    this.totals = totals.on(db);
  }

  private engine(): "sqlite" | "postgresql" {
    return this.db().engine === "postgresql" ? "postgresql" : "sqlite";
  }

  async insert(e: CostEvent): Promise<void> {
    const bucket = bucketOf(Date.parse(e.timestamp));
    await atomically(this.db(), function* (tx) {
      yield* tx.run(INSERT_EVENT, [e.id, e.agentId, e.model, e.action, e.inputTokens, e.outputTokens, e.estimatedCostCents, e.priced, e.taskId, e.timestamp]);
      yield* tx.run(ADD_TO_ROLLUP, [e.agentId, bucket, e.inputTokens, e.outputTokens, e.estimatedCostCents]);
      yield* tx.run(ADD_TO_TOTALS, [e.agentId, e.estimatedCostCents]);
    });
  }

  /** Per-agent totals of events in [startMs, endMs); both on quarter-hour boundaries. Raw: see {@link RANGE}. */
  async byAgent(startMs: number, endMs: number): Promise<Array<Totals & { agentId: string }>> {
    const sql = RANGE[this.engine()];
    const rows = await atomically(this.db(), (tx) => tx.all<Totals & { agentId: string }>(sql, [bucketOf(startMs), bucketOf(endMs)]));
    return rows.map((row) => counted(row, SUMS));
  }

  /**
   * Totals by agent, model and quarter hour of the events in [startMs, endMs). Raw: the
   * rollup has no model, so this reads the events (over their timestamp index, a bounded
   * window: GET /api/usage/series allows at most 90 days) and buckets them in SQL.
   */
  async series(startMs: number, endMs: number): Promise<Array<Totals & { agentId: string; model: string; bucket: number }>> {
    const sql = SERIES[this.engine()];
    const rows = await atomically(this.db(), (tx) => tx.all<Totals & { agentId: string; model: string; bucket: number }>(sql, [new Date(startMs).toISOString(), new Date(endMs).toISOString()]));
    return rows.map((row) => counted(row, SUMS));
  }

  /** Every budget set through the API. */
  async allBudgets(): Promise<Array<{ agentId: string; dailyCents: number }>> {
    return (await this.budgets.list({ limit: 10_000 })).map(({ agentId, dailyCents }) => ({ agentId, dailyCents }));
  }

  async agentCost(agentId: string, startMs: number, endMs: number): Promise<number> {
    const [row] = await this.rollup.qb().select(raw(`coalesce(sum("costCents"), 0) AS "costCents"`)).where({ agentId, bucket: { $gte: bucketOf(startMs), $lt: bucketOf(endMs) } }).execute<{ costCents: number }[]>("all", false);
    return Number(row!.costCents);
  }

  async allTime(): Promise<{ events: number; costCents: number }> {
    const [row] = await this.totals.qb().select([raw("coalesce(sum(events), 0) AS events"), raw(`coalesce(sum("costCents"), 0) AS "costCents"`)]).execute<{ events: number; costCents: number }[]>("all", false);
    return counted(row!, ["events", "costCents"]);
  }

  async budget(agentId: string): Promise<number | undefined> {
    return (await this.budgets.get(agentId))?.dailyCents;
  }

  /** One upsert (`ON CONFLICT DO UPDATE`), so two settings of one budget cannot collide on its key. */
  async setBudget(agentId: string, dailyCents: number, now: string): Promise<void> {
    await this.budgets.qb().insert({ agentId, dailyCents, updatedAt: now }).onConflict("agentId").merge(["dailyCents", "updatedAt"]).execute("run");
  }

  /** True for the one caller that first claims this alert (one conditional insert on every engine). */
  async claimAlert(agentId: string, day: string, level: string, now: string): Promise<boolean> {
    const { affectedRows } = await this.alerts.qb().insert({ agentId, day, level, createdAt: now }).onConflict(["agentId", "day", "level"]).ignore().execute("run");
    return affectedRows === 1;
  }
}
