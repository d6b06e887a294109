import type { EventBus, Logger } from "@muster/plugin";
import type { Notifier } from "../../notifications/tokens.ts";
import type { AgentDirectoryService } from "./agent-directory.ts";
import { stuckReason } from "./escalation-chain.ts";

/**
 * Escalates agents found `stuck` (DESIGN §14.7): the next level of the chain is notified once
 * per stuck episode; the episode ends when the agent leaves `stuck` (active again, idle after
 * 30 minutes, or offline), and a later one is notified again.
 */
export class StuckEscalation {
  private readonly notified = new Set<string>();
  private running = false;
  private readonly deps: { directory: AgentDirectoryService; notifications: Notifier; events: EventBus; logger: Logger; intervalMs: number };
  constructor(deps: { directory: AgentDirectoryService; notifications: Notifier; events: EventBus; logger: Logger; intervalMs: number }) {
    this.deps = deps;
  }

  start(): () => void {
    const timer = setInterval(() => void this.check(), this.deps.intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** One pass over the crew; returns the ids escalated by it. */
  async check(): Promise<string[]> {
    if (this.running) return [];
    this.running = true;
    try {
      const escalated: string[] = [];
      const health = await this.deps.directory.healthAll();
      const stuck = new Set(health.filter((h) => h.state === "stuck").map((h) => h.id));
      for (const id of this.notified) if (!stuck.has(id)) this.notified.delete(id);
      for (const entry of health) {
        if (entry.state !== "stuck" || this.notified.has(entry.id)) continue;
        const target = await this.deps.directory.escalationFor(entry.id);
        // Agents only the gateway knows have no place in the chain; the owner hears about them.
        const toLevel = target?.toLevel ?? "owner";
        const to = target?.agentId ?? target?.owner ?? null;
        const reason = target ? stuckReason(target) : "blocker";
        this.notified.add(entry.id);
        this.deps.notifications.create({
          type: "agent.stuck",
          title: `Agent ${entry.id} is stuck (idle ${entry.idleMinutes} min): escalated to ${toLevel}${to ? ` (${to})` : ""}`,
          body: `Reason: ${reason}. ${entry.id} has had no gateway activity for ${entry.idleMinutes} minutes; it is escalated from ${target?.fromLevel ?? "an unknown level"} to ${toLevel}.`,
          priority: "high",
          agentId: entry.id,
          href: `/api/agents/${encodeURIComponent(entry.id)}`,
        });
        this.deps.events.publish("agents.agent.escalated", { agentId: entry.id, toLevel, to, reason }, { public: true });
        escalated.push(entry.id);
      }
      return escalated;
    } catch (error) {
      this.deps.logger.warn({ err: error }, "stuck-agent escalation check failed");
      return [];
    } finally {
      this.running = false;
    }
  }
}
