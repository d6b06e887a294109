import type { ApprovalGate, EventBus, GatedAction, Instances, Logger } from "@muster/plugin";
import type { ApprovalEventPayload } from "../../approvals/events.ts";
import type { ApprovalQueue } from "../../approvals/tokens.ts";
import type { Crew } from "../../agents/tokens.ts";
import type { WorkspaceMemory } from "../../memory/tokens.ts";
import type { Notifier } from "../../notifications/tokens.ts";
import type { WorkRecord, WorkTracker } from "../../work/tokens.ts";
import { dispatchErrors } from "../errors.ts";
import { escalateBlockedTask } from "./escalation.ts";
import type { ReviewStore } from "./review-store.ts";

/** The gated action kind of a task's review approval (DESIGN §14.6 names it, without the plugin's prefix). */
export const REVIEW_ACTION = "task.review";

export interface ReviewPayload {
  taskId: string;
  title: string;
}

export interface ReviewFlowDeps {
  work: WorkTracker;
  gate: ApprovalGate;
  /** To find a review's approval that a kill left unlinked. */
  approvals: ApprovalQueue;
  events: EventBus;
  store: ReviewStore;
  /** Which instances are alive: a review one of them opened and is linking is not repaired (team mode). */
  instances: Instances;
  notifications: Notifier;
  logger: Logger;
  owner: string;
  crew?: Crew;
  /** The organisation file, for escalation when the agents plugin is not loaded. */
  memory?: WorkspaceMemory;
}

/**
 * The spec's approval flow for finished work (DESIGN §14.6) and the escalation of blocked
 * tasks (§14.7), driven by the work plugin's task events:
 * - a task entering `review` (by dispatch or PATCH) gets one `task.review` approval, none
 *   when one is pending (the review store opens it in one transaction);
 * - approving runs the action: the task moves to `done`; rejecting moves it back to
 *   `in_progress` with the reason appended to its notes;
 * - a task in `review` or with a pending review cannot be moved to `done` by an update
 *   (409 TASK_REVIEW_PENDING): only the approval does that;
 * - a task becoming `blocked` notifies the next level of the chain, once per blocked episode.
 */
export class ReviewFlow {
  private readonly deps: ReviewFlowDeps;
  /** Tasks the approved review action is moving to `done` right now (the guard lets them through). */
  private readonly approving = new Set<string>();
  constructor(deps: ReviewFlowDeps) {
    this.deps = deps;
  }

  /** What approving a review does (declared as the `task.review` gated action, dispatch's index.ts). */
  action(): GatedAction<ReviewPayload> {
    return {
      describe: (p) => `Accept the work on task ${p.taskId} ("${p.title}"): the task moves to done`,
      execute: (p, decision) => this.approve(p, decision.approvalId),
    };
  }

  start(): () => void {
    const { work, events } = this.deps;
    const offs = [
      work.guardTaskUpdates((task, changes) => this.guard(task, changes)),
      events.subscribe("work.task.created", (event) => this.onTask(event.payload as WorkRecord<"task">, { created: true })),
      events.subscribe("work.task.updated", (event) => this.onTask(event.payload as WorkRecord<"task">, { created: false })),
      events.subscribe("approvals.approval.rejected", (event) => this.onRejected(event.payload)),
    ];
    return () => offs.forEach((off) => off());
  }

  /**
   * Repairs what a kill between a task entering `review` and its approval being linked left
   * behind, so no task waits in review without a decidable approval. A review opened but never
   * linked gets its approval if one was created (no duplicate), else is dropped; then every
   * task in `review` without a pending review gets one. Returns how many were repaired.
   *
   * Owner-aware, like the dispatches' recovery: a review another live instance opened is one
   * it is linking right now (its approval may not exist yet), so it is left alone; dropping it
   * would give the task a second approval. At start-up (after start()) every task in `review`
   * is checked; in team mode's sweep for dead instances (every 2 s) only the tasks of the
   * reviews a dead instance left unlinked.
   */
  async recover({ startUp }: { startUp: boolean }): Promise<number> {
    const { store, work, instances } = this.deps;
    let repaired = 0;
    const unlinked = await store.unlinked(await instances.liveIds());
    const approvalOf = unlinked.length > 0 ? await this.pendingReviewApprovals() : new Map<string, string>();
    for (const review of unlinked) {
      const approvalId = approvalOf.get(review.taskId);
      if (approvalId) await store.attachApproval(review.id, approvalId);
      else await store.discard(review.id);
      repaired++;
    }
    const items = startUp
      ? (await work.listTasks({ status: "review" }, { limit: null, offset: 0 })).items
      : (await Promise.all(unlinked.map((review) => work.find("task", review.taskId)))).filter((task) => task?.status === "review") as WorkRecord<"task">[];
    for (const task of items) {
      if (await store.hasPending(task.id)) continue;
      await this.requestReview(task);
      repaired++;
    }
    return repaired;
  }

  /** Every pending `task.review` approval's id by its task (the first per task), read once for all unlinked reviews. */
  private async pendingReviewApprovals(): Promise<Map<string, string>> {
    const PAGE = 500;
    const byTask = new Map<string, string>();
    for (let offset = 0; ; offset += PAGE) {
      const { pending, pendingTotal } = await this.deps.approvals.list({ historyLimit: 0, pendingLimit: PAGE, pendingOffset: offset });
      for (const a of pending) if (a.command === REVIEW_ACTION && !byTask.has(a.taskId)) byTask.set(a.taskId, a.id);
      if (offset + PAGE >= pendingTotal || pending.length === 0) return byTask;
    }
  }

  private async guard(task: WorkRecord<"task">, changes: Record<string, unknown>): Promise<void> {
    if (changes.status !== "done" || task.status === "done" || this.approving.has(task.id)) return;
    if (task.status === "review" || (await this.deps.store.hasPending(task.id))) throw dispatchErrors.TASK_REVIEW_PENDING({ taskId: task.id });
  }

  private async onTask(task: WorkRecord<"task">, { created }: { created: boolean }): Promise<void> {
    if (task.status === "review") await this.requestReview(task);
    if (task.status === "blocked") {
      if (await this.deps.store.startBlockedEpisode(task.id, new Date().toISOString())) {
        const sent = await escalateBlockedTask(task, this.deps);
        this.deps.events.publish("dispatch.task.escalated", { taskId: task.id, agentId: task.assignedTo, ...sent }, { public: true });
      }
    } else if (!created) await this.deps.store.endBlockedEpisode(task.id); // a new task has no episode to end
  }

  private async requestReview(task: WorkRecord<"task">): Promise<void> {
    const review = await this.deps.store.open(task.id, new Date().toISOString());
    if (!review) return;
    try {
      const { approvalId } = await this.deps.gate.request<ReviewPayload>(REVIEW_ACTION, { taskId: task.id, title: task.title }, {
        // The agent that did the work asks; a human decides.
        requestedBy: task.assignedTo || "muster",
        title: `Review task: ${task.title}`,
        taskId: task.id,
        context: task.notes ?? task.description ?? undefined,
      });
      await this.deps.store.attachApproval(review.id, approvalId);
    } catch (error) {
      await this.deps.store.discard(review.id);
      this.deps.logger.warn({ err: error, taskId: task.id }, "creating a task's review approval failed; the task stays in review without one");
    }
  }

  private async approve(payload: ReviewPayload, approvalId: string): Promise<unknown> {
    await this.deps.store.resolve({ id: approvalId, taskId: payload.taskId }, "approved", new Date().toISOString());
    this.approving.add(payload.taskId);
    try {
      const task = await this.deps.work.update("task", payload.taskId, { status: "done" });
      return { taskId: task.id, status: task.status };
    } finally {
      this.approving.delete(payload.taskId);
    }
  }

  private async onRejected(approval: ApprovalEventPayload): Promise<void> {
    if (approval.command !== REVIEW_ACTION) return;
    const review = await this.deps.store.resolve(approval, "rejected", new Date().toISOString());
    if (!review) return;
    const task = await this.deps.work.find("task", review.taskId);
    if (task?.status !== "review") return;
    const reason = approval.reason?.trim() || (approval.expired ? "expired without a decision" : "no reason given");
    const line = `Review rejected${approval.decidedBy ? ` by ${approval.decidedBy}` : ""} (${approval.resolvedAt ?? new Date().toISOString()}): ${reason}`;
    await this.deps.work.update("task", task.id, { status: "in_progress", notes: task.notes ? `${task.notes}\n\n${line}` : line });
  }
}
