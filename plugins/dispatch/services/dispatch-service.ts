import { randomUUID } from "node:crypto";
import type { EventBus, GatewayClient, Instances, Logger, RateLimits, SharedRateLimiter } from "@muster/plugin";
import type { ActivityLog } from "../../activities/tokens.ts";
import type { Crew } from "../../agents/tokens.ts";
import type { AgentTurnRunner } from "../../chat/tokens.ts";
import type { UsageLedger } from "../../usage/tokens.ts";
import type { WorkRecord, WorkTracker } from "../../work/tokens.ts";
import type { DispatchConfig } from "../config.ts";
import { dispatchErrors } from "../errors.ts";
import type { Dispatcher, DispatchRecord } from "../tokens.ts";
import type { DispatchStore } from "./dispatch-store.ts";
import { dispatchSessionKey, taskMessage } from "./task-message.ts";

export interface DispatchServiceDeps {
  store: DispatchStore;
  rateLimits: RateLimits;
  work: WorkTracker;
  turns: AgentTurnRunner;
  gateway: GatewayClient;
  events: EventBus;
  logger: Logger;
  config: DispatchConfig;
  activities: ActivityLog;
  /** Budgets and cost events, when the usage plugin is loaded. */
  usage?: UsageLedger;
  /**
   * The crew capability, when the agents plugin is loaded: an unknown assignee is refused (404
   * AGENT_NOT_FOUND), and cost events carry the agent's model. Without it the gateway decides.
   */
  crew?: Crew;
  /** Which instances are alive: only dispatches none of them runs are recovered (team mode). */
  instances?: Instances;
}

const INTERRUPTED = "Muster stopped while the dispatch was in flight: the agent's reply was not collected and the task was not sent again";

/**
 * Sends tasks to their assignees (DESIGN §14.6). Everything that can refuse a dispatch
 * (unknown task, no assignee, unknown agent, budget, gateway down, already running, rate
 * limit) is checked before the task changes; the run itself continues in the background and
 * ends the dispatch exactly once: `completed` (task → review), `failed` (task back to the
 * status it had), or `interrupted` by a restart (recovered at start-up, never re-sent).
 */
export class DispatchService implements Dispatcher {
  private readonly deps: DispatchServiceDeps;
  /** The spec's dispatch pair, held across instances in team mode (`hostTokens.rateLimits`). */
  private readonly limiter: SharedRateLimiter;
  private stopped = false;
  constructor(deps: DispatchServiceDeps) {
    this.deps = deps;
    this.limiter = deps.rateLimits.create({ feature: "dispatch", ...deps.config.rateLimit });
  }

  async dispatch(taskId: string): Promise<DispatchRecord> {
    const { work, store } = this.deps;
    const task = await work.get("task", taskId);
    const agentId = task.assignedTo;
    if (!agentId) throw dispatchErrors.DISPATCH_TASK_UNASSIGNED({ taskId });
    if (task.status === "review" || task.status === "done") throw dispatchErrors.DISPATCH_TASK_NOT_DISPATCHABLE({ taskId, status: task.status });
    await this.deps.crew?.assertKnown([agentId]);
    await this.deps.usage?.checkBudget(agentId);
    await this.deps.gateway.ready(0);
    const row: DispatchRecord = {
      id: randomUUID(),
      taskId,
      agentId,
      status: "running",
      previousStatus: task.status,
      sessionKey: dispatchSessionKey(agentId, taskId),
      output: null,
      error: null,
      inputTokens: null,
      outputTokens: null,
      createdAt: new Date().toISOString(),
      finishedAt: null,
      taskSettledAt: null,
    };
    // The claim decides concurrent dispatches of one task (the losers get 409, not 429);
    // the slot is taken only by the winner and held until its run ends.
    const started = await store.start(row);
    if (!started.started) throw dispatchErrors.DISPATCH_ALREADY_RUNNING({ taskId, dispatchId: started.runningId });
    let release: () => void;
    try {
      release = await this.limiter.acquire();
    } catch (error) {
      // Refused before anything changed: the claim is withdrawn, no record is left.
      await store.remove(row.id);
      throw error;
    }
    try {
      if (task.status !== "in_progress") await work.update("task", taskId, { status: "in_progress" });
    } catch (error) {
      release();
      const now = new Date().toISOString();
      await store.finish(row.id, { status: "failed", error: `the task could not be moved to in_progress: ${(error as Error).message}` }, now);
      await store.markSettled(row.id, now);
      throw error;
    }
    this.deps.events.publish("dispatch.dispatch.created", row, { public: true });
    void this.run(row, task, release);
    return row;
  }

  async list(limit: number): Promise<DispatchRecord[]> {
    return this.deps.store.list(limit);
  }

  async get(id: string): Promise<DispatchRecord> {
    const row = await this.deps.store.get(id);
    if (!row) throw dispatchErrors.DISPATCH_NOT_FOUND({ id });
    return row;
  }

  /**
   * Marks what a previous or dead process left running as interrupted (never re-sent), then
   * moves the task of every ended dispatch whose task was not moved yet: those just
   * interrupted, and those a kill cut off between recording their end and moving their task.
   * In team mode only dispatches no live instance runs (or ran) are touched.
   */
  async recoverInterrupted(): Promise<number> {
    const live = (await this.deps.instances?.liveIds()) ?? [];
    const interrupted = await this.deps.store.interruptRunning(INTERRUPTED, new Date().toISOString(), live);
    for (const row of await this.deps.store.unsettled(live)) await this.settleTask(row);
    for (const row of interrupted) this.publishUpdated(row.id);
    return interrupted.length;
  }

  /** Stops handling replies: runs still in flight stay `running` and are recovered as interrupted at the next start. */
  stop(): void {
    this.stopped = true;
  }

  private async run(row: DispatchRecord, task: WorkRecord<"task">, release: () => void): Promise<void> {
    const { work, store, logger } = this.deps;
    try {
      const reply = await this.deps.turns.run({ agentId: row.agentId, sessionKey: row.sessionKey, message: taskMessage(task), timeoutMs: this.deps.config.runTimeoutMs });
      if (this.stopped) return;
      const ended = await store.finish(row.id, { status: "completed", output: reply.text, inputTokens: reply.usage.inputTokens, outputTokens: reply.usage.outputTokens }, new Date().toISOString());
      if (!ended) return;
      this.deps.activities.log({ agentId: row.agentId, action: "task_dispatch_completed", target: row.taskId, details: `dispatch ${row.id}: ${reply.text.slice(0, 500)}` });
      await this.recordCost(row, reply.usage);
      await this.settleTask({ ...row, status: "completed" });
    } catch (error) {
      if (this.stopped) return;
      const reason = (error as Error).message || String(error);
      if (!(await store.finish(row.id, { status: "failed", error: reason }, new Date().toISOString()))) return;
      this.deps.activities.log({ agentId: row.agentId, action: "task_dispatch_failed", target: row.taskId, details: `dispatch ${row.id}: ${reason}` });
      await this.settleTask({ ...row, status: "failed" }).catch((cause: unknown) => logger.warn({ err: cause, dispatchId: row.id }, "restoring a failed dispatch's task failed"));
    } finally {
      release();
      if (!this.stopped) this.publishUpdated(row.id);
    }
  }

  /**
   * Moves an ended dispatch's task, then records that it did: a completed dispatch's task goes
   * to `review`, a failed or interrupted one's back to the status it had. Only a task still
   * `in_progress` moves (a human who moved it meanwhile, blocked say, decided), and never while
   * a newer dispatch of it runs. A kill before the record is caught by the next start.
   */
  private async settleTask(row: DispatchRecord): Promise<void> {
    const current = await this.deps.work.find("task", row.taskId);
    if (current?.status === "in_progress" && !(await this.deps.store.hasOtherRunning(row.taskId, row.id))) {
      if (row.status === "completed") await this.deps.work.update("task", row.taskId, { status: "review" });
      else if (row.previousStatus !== "in_progress") await this.deps.work.update("task", row.taskId, { status: row.previousStatus });
    }
    await this.deps.store.markSettled(row.id, new Date().toISOString());
  }

  private async recordCost(row: DispatchRecord, usage: { inputTokens: number; outputTokens: number }): Promise<void> {
    if (!this.deps.usage) return;
    try {
      // As chat does: the model the gateway session ran on, else the configured one.
      const model = (await this.deps.crew?.modelOf(row.agentId, row.sessionKey)) ?? "unknown";
      await this.deps.usage.record({ agentId: row.agentId, model, action: "task", inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, taskId: row.taskId });
    } catch (error) {
      this.deps.logger.warn({ err: error, dispatchId: row.id }, "recording a dispatch's cost event failed");
    }
  }

  private publishUpdated(id: string): void {
    void this.deps.store.get(id).then((row) => row && this.deps.events.publish("dispatch.dispatch.updated", row, { public: true }));
  }
}
