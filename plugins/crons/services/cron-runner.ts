import { randomUUID } from "node:crypto";
import { clip, type EventBus, type GatewayClient, type Logger } from "@muster/plugin";
import type { UsageLedger } from "../../usage/tokens.ts";
import type { CronJobRow } from "../entities/cron-job.ts";
import type { CronRunRecord } from "../tokens.ts";
import type { CronStore } from "./cron-store.ts";

export interface CronRunnerDeps {
  store: CronStore;
  gateway: GatewayClient;
  events: EventBus;
  logger: Logger;
  usage?: UsageLedger;
  runTimeoutMs: number;
  now: () => number;
}

const OUTPUT_MAX = 64 * 1024;

/**
 * Runs one job through the gateway's `agent` method and records the outcome. A job still
 * running when it fires again is recorded `skipped`; a budget refusal is `skipped` with
 * BUDGET_EXCEEDED; gateway failures are `error` with the gateway's code.
 */
export class CronRunner {
  private readonly deps: CronRunnerDeps;
  private readonly running = new Set<string>();
  private stopped = false;
  constructor(deps: CronRunnerDeps) {
    this.deps = deps;
  }

  /** After stop, results are no longer written: like a killed process, start-up marks them interrupted. */
  stop(): void {
    this.stopped = true;
  }

  isRunning(jobId: string): boolean {
    return this.running.has(jobId);
  }

  /**
   * Starts a run (for a schedule, `fireAt` is claimed atomically first; false when another
   * claim got it). Resolves with the run as it started; `done` settles when it finished.
   */
  async start(job: CronJobRow, fireAt: string | null): Promise<{ run: CronRunRecord; done: Promise<CronRunRecord>; refusal?: Error } | null> {
    const startedAt = new Date(this.deps.now()).toISOString();
    const run: CronRunRecord = { id: randomUUID(), jobId: job.id, trigger: fireAt ? "schedule" : "manual", fireAt, startedAt, finishedAt: null, status: "running", output: null, error: null };
    const budget = this.running.has(job.id) ? null : await this.budgetRefusal(job.agentId);
    const refusal = this.running.has(job.id) ? "ALREADY_RUNNING" : budget ? ((budget as { code?: string }).code ?? "BUDGET_EXCEEDED") : null;
    if (refusal) Object.assign(run, { status: "skipped", finishedAt: startedAt, error: refusal });
    if (!(await this.deps.store.startRun(run))) return null;
    if (run.status === "skipped") {
      this.deps.events.publish("crons.run.finished", run, { public: true });
      return { run, done: Promise.resolve(run), ...(budget ? { refusal: budget } : {}) };
    }
    this.running.add(job.id);
    this.deps.events.publish("crons.run.started", run, { public: true });
    const done = this.execute(job, run).finally(() => this.running.delete(job.id));
    return { run: { ...run }, done };
  }

  /** The usage ledger's BUDGET_EXCEEDED error when the agent has spent its day's budget. */
  private async budgetRefusal(agentId: string): Promise<Error | null> {
    if (!this.deps.usage) return null;
    try {
      await this.deps.usage.checkBudget(agentId);
      return null;
    } catch (error) {
      return error as Error;
    }
  }

  private async execute(job: CronJobRow, run: CronRunRecord): Promise<CronRunRecord> {
    try {
      const final = await this.deps.gateway.agent(
        {
          message: job.message,
          idempotencyKey: `cron-${run.id}`,
          agentId: job.agentId,
          sessionKey: `agent:${job.agentId}:cron-${job.id}`,
          ...(job.model ? { model: job.model } : {}),
        },
        { timeoutMs: this.deps.runTimeoutMs },
      );
      const text = (final.result?.payloads ?? []).map((p) => p.text ?? "").filter(Boolean).join("\n") || (final.summary ?? "");
      Object.assign(run, { status: final.status === "error" ? "error" : "ok", output: clip(text, OUTPUT_MAX), error: final.status === "error" ? "AGENT_RUN_FAILED" : null });
      await this.recordUsage(job, final.result?.meta?.agentMeta);
    } catch (error) {
      const code = (error as { code?: string }).code ?? "INTERNAL_ERROR";
      Object.assign(run, { status: "error", error: code });
      this.deps.logger.warn({ jobId: job.id, code }, "cron run failed");
    }
    run.finishedAt = new Date(this.deps.now()).toISOString();
    if (!this.stopped) {
      await this.deps.store.finishRun(run, { id: job.id, lastStatus: run.status === "ok" ? "ok" : "error", lastError: run.error });
      this.deps.events.publish("crons.run.finished", run, { public: true });
    }
    return run;
  }

  private async recordUsage(job: CronJobRow, meta: { model?: string; usage?: Record<string, unknown> } | undefined): Promise<void> {
    if (!this.deps.usage || !meta?.usage) return;
    const count = (...values: unknown[]) => Number(values.find((v) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0) ?? 0);
    try {
      await this.deps.usage.record({
        agentId: job.agentId,
        model: meta.model ?? job.model ?? "unknown",
        action: "task",
        inputTokens: count(meta.usage.inputTokens, meta.usage.input),
        outputTokens: count(meta.usage.outputTokens, meta.usage.output),
      });
    } catch (error) {
      this.deps.logger.warn({ err: error, jobId: job.id }, "cron cost event not recorded");
    }
  }
}
