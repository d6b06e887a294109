import type { Notifier } from "../../notifications/tokens.ts";

/** One notification when more than `threshold` gateway requests wait, at most one per `intervalMs`. */
export class Digest {
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private readonly deps: { notifications: Notifier; threshold: number; intervalMs: number; now: () => number };
  constructor(deps: { notifications: Notifier; threshold: number; intervalMs: number; now: () => number }) {
    this.deps = deps;
  }

  check(waiting: number): void {
    const now = this.deps.now();
    if (waiting <= this.deps.threshold || now - this.lastSentAt < this.deps.intervalMs) return;
    this.lastSentAt = now;
    this.deps.notifications.create({
      type: "approvals.digest",
      title: `${waiting} OpenClaw approval requests are waiting`,
      body: "Agents are blocked until someone decides them: open the approvals queue (dashboard, messenger or `muster approvals`).",
      priority: "high",
      href: "/approvals",
    });
  }
}
