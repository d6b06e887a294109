import type { AgentDirectory as CrewDirectory, EscalationTarget } from "../../agents/tokens.ts";
import type { Notifier } from "../../notifications/tokens.ts";
import type { WorkRecord } from "../../work/tokens.ts";

/** The spec's reason category for a blocked task at each step of the chain. */
export function blockedReason(target: EscalationTarget | null): string {
  const triggers = target?.triggers ?? [];
  for (const preferred of ["blocker", "resource_conflict", "strategy"]) if (triggers.includes(preferred)) return preferred;
  return triggers[0] ?? "blocker";
}

/**
 * Notifies the next level of the chain above a blocked task's assignee (DESIGN §14.7):
 * execution → management → executive → owner. An unassigned task, or one whose assignee is
 * not in the organisation file, goes to the owner.
 */
export async function escalateBlockedTask(
  task: WorkRecord<"task">,
  deps: { notifications: Notifier; crew?: CrewDirectory; owner: string },
): Promise<{ toLevel: string; to: string | null; reason: string }> {
  const target = task.assignedTo && deps.crew ? await deps.crew.escalationFor(task.assignedTo) : null;
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
