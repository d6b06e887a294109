import type { OrgEntry } from "./org-file.ts";

/** The default heartbeat prompt a nudge sends when the agent's workspace has no `HEARTBEAT.md`. */
export const DEFAULT_HEARTBEAT = [
  "# Heartbeat",
  "",
  "This is a heartbeat check from Muster: you have been quiet for a while.",
  "Look at the tasks assigned to you, continue the one in progress, and report a blocker if you have one.",
  "",
].join("\n");

/** The workspace directory of an agent's files. */
export const agentDir = (agentId: string) => `agents/${agentId}`;

/** The files the factory and packs write for one agent, relative to the workspace, in writing order. */
export function agentFiles(entry: OrgEntry, persona: string, source: string): { path: string; content: string }[] {
  const identity = [
    `# ${entry.name}`,
    "",
    `- **Name:** ${entry.name}`,
    `- **Id:** ${entry.id}`,
    `- **Role:** ${entry.role}`,
    `- **Model:** ${entry.model}`,
    `- **Emoji:** ${entry.emoji ?? ""}`,
    `- **Tier:** ${entry.tier}`,
    `- **Squad:** ${entry.squad ?? ""}`,
    `- **Reports to:** ${entry.reports_to ?? ""}`,
    `- **Skills:** ${entry.skills.join(", ")}`,
    "",
  ].join("\n");
  const agents = `${persona.trimEnd()}\n\n---\n${source}\n`;
  const dir = agentDir(entry.id);
  return [
    { path: `${dir}/IDENTITY.md`, content: identity },
    { path: `${dir}/AGENTS.md`, content: agents },
    { path: `${dir}/HEARTBEAT.md`, content: DEFAULT_HEARTBEAT },
  ];
}
