import type { Crew, EscalationTarget } from "../../agents/tokens.ts";
import type { WorkspaceMemory, OrgStructure } from "../../memory/tokens.ts";
import type { Notifier } from "../../notifications/tokens.ts";
import type { WorkRecord } from "../../work/tokens.ts";

/** The spec's reason category for a blocked task at each step of the chain. */
export function blockedReason(target: EscalationTarget | null): string {
  const triggers = target?.triggers ?? [];
  for (const preferred of ["blocker", "resource_conflict", "strategy"]) if (triggers.includes(preferred)) return preferred;
  return triggers[0] ?? "blocker";
}

/**
 * The next level above an agent read straight from the organisation file, for when the agents
 * plugin (whose directory also picks someone in the squad or at the level) is not loaded:
 * the level is the agent's tier name, the person its `reports_to`, else the owner.
 */
export function orgFileEscalation(org: OrgStructure, agentId: string): EscalationTarget | null {
  const agent = org.agents.find((a) => a.id === agentId);
  if (!agent) return null;
  const fromLevel = org.tiers.find((t) => t.tier === agent.tier)?.name ?? null;
  const step = org.escalation.find((s) => s.from === fromLevel);
  const toLevel = step?.to ?? "owner";
  const base = { fromLevel, toLevel, triggers: step?.triggers ?? [] };
  if (toLevel !== "owner" && agent.reportsTo) return { ...base, agentId: agent.reportsTo, owner: null };
  return { ...base, toLevel: "owner", agentId: null, owner: org.owner };
}

async function targetFor(agentId: string, deps: { crew?: Crew; memory?: WorkspaceMemory }): Promise<EscalationTarget | null> {
  if (deps.crew) return deps.crew.escalationFor(agentId);
  if (!deps.memory) return null;
  return orgFileEscalation((await deps.memory.orgStructure()).org, agentId);
}

/**
 * Notifies the next level of the chain above a blocked task's assignee (DESIGN §14.7):
 * execution → management → executive → owner. An unassigned task, or one whose assignee is
 * not in the organisation file, goes to the owner.
 */
export async function escalateBlockedTask(
  task: WorkRecord<"task">,
  deps: { notifications: Notifier; crew?: Crew; memory?: WorkspaceMemory; owner: string },
): Promise<{ toLevel: string; to: string | null; reason: string }> {
  const target = task.assignedTo ? await targetFor(task.assignedTo, deps) : null;
  const toLevel = target?.toLevel ?? "owner";
  const to = target?.agentId ?? target?.owner ?? deps.owner;
  const reason = blockedReason(target);
  deps.notifications.create({
    type: "task.blocked",
    title: `Task "${task.title}" (${task.id}) is blocked: escalated to ${toLevel}${to ? ` (${to})` : ""}`,
    body: `Reason: ${reason}. Task ${task.id} "${task.title}"${task.assignedTo ? `, assigned to ${task.assignedTo},` : ""} is blocked; it is escalated from ${target?.fromLevel ?? "an unknown level"} to ${toLevel}.`,
    priority: "high",
    agentId: target?.agentId ?? null,
    href: `/api/tasks/${encodeURIComponent(task.id)}`,
  });
  return { toLevel, to, reason };
}
