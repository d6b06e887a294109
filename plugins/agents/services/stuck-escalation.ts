import type { EventBus, Logger } from "@muster/plugin";
import type { Notifier } from "../../notifications/tokens.ts";
import type { AgentDirectoryService } from "./agent-directory.ts";
import type { AgentStore } from "./agent-store.ts";
import { stuckReason } from "./escalation-chain.ts";

export interface StuckEscalationDeps {
  directory: AgentDirectoryService;
  store: AgentStore;
  notifications: Notifier;
  events: EventBus;
  logger: Logger;
  intervalMs: number;
}

/**
 * Escalates agents found `stuck` (DESIGN §14.7): the next level of the chain is notified once
 * per stuck episode. An episode is the silence after the agent's last activity: the same
 * `lastActivityMs` is the same episode (also after a restart, or offline and back); new
 * activity and then silence is a new one.
 */
export class StuckEscalation {
  private running = false;
  private readonly deps: StuckEscalationDeps;
  constructor(deps: StuckEscalationDeps) {
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
      for (const entry of health) {
        if (entry.state !== "stuck" || entry.lastActivityMs === null) continue;
        if (!(await this.deps.store.claimEscalation(entry.id, entry.lastActivityMs, new Date().toISOString()))) continue;
        const target = await this.deps.directory.escalationFor(entry.id);
        // Agents only the gateway knows have no place in the chain; the owner hears about them.
        const toLevel = target?.toLevel ?? "owner";
        const to = target?.agentId ?? target?.owner ?? null;
        const reason = target ? stuckReason(target) : "blocker";
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
