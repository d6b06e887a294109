import type { WorkRecord } from "../../work/tokens.ts";

/** The gateway session of a task's dispatches: the same key continues the agent's conversation about it. */
export const dispatchSessionKey = (agentId: string, taskId: string): string => `agent:${agentId}:dispatch-${taskId}`;

/** What the agent is sent: the task's title, description and notes, and what to answer. */
export function taskMessage(task: WorkRecord<"task">): string {
  const parts = [`Task ${task.id}: ${task.title}`];
  if (task.description) parts.push(`Description:\n${task.description}`);
  if (task.notes) parts.push(`Notes:\n${task.notes}`);
  parts.push("Do this task. When you have finished, reply with a short summary of what you did; a human reviews it before the task is done.");
  return parts.join("\n\n");
}
