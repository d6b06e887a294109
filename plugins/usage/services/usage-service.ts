import { randomUUID } from "node:crypto";
import type { EventBus, Logger } from "@muster/plugin";
import type { Notifier } from "../../notifications/tokens.ts";
import type { UsageConfig } from "../config.ts";
import { usageErrors } from "../errors.ts";
import type { BudgetStatus, CostEvent, NewCostEvent, UsageLedger } from "../tokens.ts";
import { priceEvent } from "./pricing.ts";
import type { UsageStore } from "./usage-store.ts";
import { isKnownTimeZone, zonedDay } from "./zoned-day.ts";

export interface UsageSummary {
  today: {
    date: string;
    timeZone: string;
    totalInputTokens: number;
    totalOutputTokens: number;
    estimatedCostCents: number;
    byAgent: Record<string, { input: number; output: number; cost: number }>;
  };
  allTime: { totalEvents: number; estimatedCostCents: number };
}

/** One day's totals for one agent and model (the console's charts pivot these by agent or by model). */
export interface UsagePoint {
  date: string;
  agentId: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costCents: number;
  events: number;
}

export interface UsageSeries {
  timeZone: string;
  /** The days covered, oldest first (`YYYY-MM-DD` in `timeZone`), today last. */
  dates: string[];
  /** Only (day, agent, model) triples with events. */
  points: UsagePoint[];
}

export interface UsageServiceDeps {
  store: UsageStore;
  config: Readonly<UsageConfig>;
  events: EventBus;
  logger: Logger;
  notifications?: Notifier;
  /** The clock (epoch ms); tests never need to replace it, event timestamps cover day changes. */
  now?: () => number;
  /**
   * Several instances serve the database (team mode): the summary is then read on every call,
   * since another instance's events would not clear this process's copy.
   */
  shared?: boolean;
}

/** A summary kept until the next recorded event or the end of its day. */
interface KeptSummary {
  /** The day's end in the summary's zone (epoch ms): past it, "today" is another day. */
  until: number;
  summary: Promise<UsageSummary>;
}

/** Budget thresholds, as fractions of the daily budget. */
const WARNING_AT = 0.8;

export class UsageService implements UsageLedger {
  private readonly deps: UsageServiceDeps;
  private readonly now: () => number;
  /**
   * The summary per time zone, read from the aggregates once and kept until an event is
   * recorded (every write goes through {@link record}) or the day ends: the console polls it,
   * and with a million events each read cost ~1 ms of sums (50 polling clients queued ~50 ms).
   */
  private readonly summaries = new Map<string, KeptSummary>();
  constructor(deps: UsageServiceDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  async record(input: NewCostEvent): Promise<CostEvent> {
    const inputTokens = this.tokens("inputTokens", input.inputTokens ?? 0);
    const outputTokens = this.tokens("outputTokens", input.outputTokens ?? 0);
    const { cents, priced } = priceEvent(this.deps.config.prices, input.model, inputTokens, outputTokens);
    const event: CostEvent = {
      id: randomUUID(),
      agentId: input.agentId,
      model: input.model,
      action: input.action,
      inputTokens,
      outputTokens,
      estimatedCostCents: cents,
      priced,
      taskId: input.taskId ?? null,
      timestamp: input.timestamp ?? new Date(this.now()).toISOString(),
    };
    try {
      await this.deps.store.insert(event);
    } finally {
      // Also a read still running: it may have summed before the insert.
      this.summaries.clear();
    }
    this.deps.events.publish("usage.cost.recorded", event, { public: true });
    if (cents > 0) await this.announceThresholds(event);
    return event;
  }

  async checkBudget(agentId: string): Promise<void> {
    const status = await this.budgetStatus(agentId);
    if (status.exceeded) throw usageErrors.BUDGET_EXCEEDED({ agentId, spentCents: status.spentCents, budgetCents: status.budgetCents });
  }

  async budgetStatus(agentId: string): Promise<BudgetStatus> {
    return this.statusOn(agentId, this.now());
  }

  async setBudget(agentId: string, dailyCents: number): Promise<BudgetStatus> {
    await this.deps.store.setBudget(agentId, dailyCents, new Date(this.now()).toISOString());
    return this.budgetStatus(agentId);
  }

  async summary(tz = "UTC"): Promise<UsageSummary> {
    if (!isKnownTimeZone(tz)) throw usageErrors.USAGE_UNKNOWN_TIME_ZONE({ tz });
    const now = this.now();
    const kept = this.summaries.get(tz);
    if (kept && now < kept.until) return kept.summary;
    const day = zonedDay(now, tz);
    const summary = this.readSummary(day, tz);
    if (!this.deps.shared) {
      this.summaries.set(tz, { until: day.end, summary });
      // A read that failed is not kept (one an event overtook was dropped by record()).
      summary.catch(() => {
        if (this.summaries.get(tz)?.summary === summary) this.summaries.delete(tz);
      });
    }
    return summary;
  }

  private async readSummary(day: { date: string; start: number; end: number }, tz: string): Promise<UsageSummary> {
    const byAgent: UsageSummary["today"]["byAgent"] = {};
    let totalInputTokens = 0;
    let totalOutputTokens = 0;
    let estimatedCostCents = 0;
    for (const row of await this.deps.store.byAgent(day.start, day.end)) {
      byAgent[row.agentId] = { input: row.inputTokens, output: row.outputTokens, cost: row.costCents };
      totalInputTokens += row.inputTokens;
      totalOutputTokens += row.outputTokens;
      estimatedCostCents += row.costCents;
    }
    const allTime = await this.deps.store.allTime();
    return {
      today: { date: day.date, timeZone: tz, totalInputTokens, totalOutputTokens, estimatedCostCents, byAgent },
      allTime: { totalEvents: allTime.events, estimatedCostCents: allTime.costCents },
    };
  }

  /** Tokens and cost per day, agent and model over the last `days` days in `tz` (today included). */
  async series(days: number, tz = "UTC"): Promise<UsageSeries> {
    if (!isKnownTimeZone(tz)) throw usageErrors.USAGE_UNKNOWN_TIME_ZONE({ tz });
    const ranges = [zonedDay(this.now(), tz)];
    while (ranges.length < days) ranges.unshift(zonedDay(ranges[0]!.start - 1, tz));
    const points = new Map<string, UsagePoint>();
    for (const row of await this.deps.store.series(ranges[0]!.start, ranges.at(-1)!.end)) {
      const ms = row.bucket * 900_000;
      const day = ranges.find((range) => ms >= range.start && ms < range.end);
      if (!day) continue;
      const key = JSON.stringify([day.date, row.agentId, row.model]);
      const point = points.get(key) ?? { date: day.date, agentId: row.agentId, model: row.model, inputTokens: 0, outputTokens: 0, costCents: 0, events: 0 };
      point.inputTokens += row.inputTokens;
      point.outputTokens += row.outputTokens;
      point.costCents += row.costCents;
      point.events += row.events;
      points.set(key, point);
    }
    return { timeZone: tz, dates: ranges.map((range) => range.date), points: [...points.values()] };
  }

  /** Every agent with a daily budget (set through the API or in config.usage.budgets) and what it spent today (UTC). */
  async budgets(): Promise<BudgetStatus[]> {
    const agents = new Set([...Object.keys(this.deps.config.budgets), ...(await this.deps.store.allBudgets()).map((budget) => budget.agentId)]);
    const now = this.now();
    return Promise.all([...agents].sort().map((agentId) => this.statusOn(agentId, now)));
  }

  private async budgetFor(agentId: string): Promise<number | null> {
    return (await this.deps.store.budget(agentId)) ?? this.deps.config.budgets[agentId] ?? null;
  }

  private async statusOn(agentId: string, ms: number): Promise<BudgetStatus> {
    const budgetCents = await this.budgetFor(agentId);
    const day = zonedDay(ms, "UTC");
    const spentCents = await this.deps.store.agentCost(agentId, day.start, day.end);
    return { agentId, spentCents, budgetCents, exceeded: budgetCents !== null && spentCents >= budgetCents };
  }

  private tokens(field: string, value: number): number {
    const max = this.deps.config.maxTokensPerEvent;
    if (!Number.isSafeInteger(value) || value < 0 || value > max) throw usageErrors.USAGE_TOKENS_OUT_OF_RANGE({ field, max, value: String(value) });
    return value;
  }

  /** 80% and 100% of the day's budget are each announced once per agent and UTC day. */
  private async announceThresholds(event: CostEvent): Promise<void> {
    const ms = Date.parse(event.timestamp);
    const status = await this.statusOn(event.agentId, ms);
    if (status.budgetCents === null || status.budgetCents === 0) return;
    const day = new Date(ms).toISOString().slice(0, 10);
    const level = status.spentCents >= status.budgetCents ? "exceeded" : status.spentCents >= status.budgetCents * WARNING_AT ? "warning" : null;
    if (!level) return;
    // Crossing 100% in one step also covers the warning: claim it so it is not sent after.
    if (level === "exceeded") await this.deps.store.claimAlert(event.agentId, day, "warning", event.timestamp);
    if (!(await this.deps.store.claimAlert(event.agentId, day, level, event.timestamp))) return;
    const payload = { agentId: event.agentId, day, level, spentCents: status.spentCents, budgetCents: status.budgetCents } as const;
    this.deps.events.publish("usage.budget.alert", payload, { public: true });
    try {
      this.deps.notifications?.create({
        type: "budget",
        title: level === "exceeded" ? `${event.agentId} reached its daily budget` : `${event.agentId} used 80% of its daily budget`,
        body: `${status.spentCents} of ${status.budgetCents} cents spent on ${day} (UTC).${level === "exceeded" ? " Dispatch, crons, chat and council for this agent are refused until tomorrow or a raise." : ""}`,
        priority: level === "exceeded" ? "high" : "normal",
        agentId: event.agentId,
      });
    } catch (error) {
      this.deps.logger.warn({ err: error }, "budget notification not stored");
    }
  }
}
