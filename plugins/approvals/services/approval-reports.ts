import type { EventBus, Logger } from "@muster/plugin";
import type { ActivityLog } from "../../activities/tokens.ts";
import type { Notifier } from "../../notifications/tokens.ts";
import type { ApprovalVerb } from "../events.ts";
import { toEventPayload, type ApprovalRecord } from "./approval-record.ts";

export interface ReportDeps {
  events: EventBus;
  activities: ActivityLog;
  notifications: Notifier;
  logger: Logger;
}

/** The agent id activities carry for what Muster itself did (expiry). */
const SYSTEM_AGENT = "muster";

/**
 * Reports approval lifecycle steps as a bus event, an activity and (for the steps a human
 * must see) a notification. Called only after the write committed. A failing report is
 * logged and never undoes or blocks the decision it reports.
 */
export class ApprovalReports {
  private readonly deps: ReportDeps;
  constructor(deps: ReportDeps) {
    this.deps = deps;
  }

  created(a: ApprovalRecord): void {
    this.emit("created", a);
    this.safely("activity", () => this.deps.activities.log({ agentId: a.requestedBy, action: "approval_requested", target: a.id, details: `${a.command ?? "approval"}: ${a.title}` }));
    this.safely("notification", () =>
      this.deps.notifications.create({
        type: "approval",
        title: `Approval requested: ${a.title}`,
        body: a.description ?? a.context ?? a.command ?? "",
        priority: "high",
        agentId: a.requestedBy,
      }),
    );
  }

  decided(a: ApprovalRecord): void {
    this.emit(a.status === "approved" ? "approved" : "rejected", a);
    const by = a.decidedBy ?? SYSTEM_AGENT;
    const verdict = a.expired ? "expired" : a.status;
    this.safely("activity", () => this.deps.activities.log({ agentId: by, action: "approval_resolved", target: a.id, details: `${verdict}: ${a.title}` }));
    this.safely("notification", () =>
      this.deps.notifications.create({
        type: "approval",
        title: `Approval ${verdict}: ${a.title}`,
        body: a.expired ? `Nobody decided before ${a.expiresAt}; the action will not run.` : `${by} ${a.status} ${a.command ?? "the request"}${a.reason ? `: ${a.reason}` : ""}`,
        priority: "normal",
        agentId: a.requestedBy,
      }),
    );
  }

  executed(a: ApprovalRecord): void {
    this.emit("executed", a);
    this.safely("activity", () => this.deps.activities.log({ agentId: a.decidedBy ?? SYSTEM_AGENT, action: "approval_executed", target: a.id, details: `${a.command}: ${a.title}` }));
  }

  executionFailed(a: ApprovalRecord): void {
    this.emit("execution_failed", a);
    this.safely("activity", () =>
      this.deps.activities.log({ agentId: a.decidedBy ?? SYSTEM_AGENT, action: "approval_execution_failed", target: a.id, details: `${a.command}: ${a.executionError ?? ""}` }),
    );
    this.safely("notification", () =>
      this.deps.notifications.create({
        type: "approval",
        title: `Approved action failed: ${a.title}`,
        body: a.executionError ?? "The action failed",
        priority: "urgent",
        agentId: a.requestedBy,
      }),
    );
  }

  private emit(verb: ApprovalVerb, a: ApprovalRecord): void {
    this.safely("event", () => this.deps.events.publish(`approvals.approval.${verb}`, toEventPayload(a), { public: true }));
  }

  private safely(what: string, fn: () => unknown): void {
    try {
      fn();
    } catch (error) {
      this.deps.logger.error({ err: error, report: what }, "approval report failed");
    }
  }
}
