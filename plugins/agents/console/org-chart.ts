// The organisation chart as nested lists: each agent with the agents that report to it.
// A list of lists is what a screen reader and a narrow screen handle well; no canvas.
import { html, pageHref, type VNode } from "@muster/console";
import type { AgentRecord } from "./crew-data.ts";

/** Agents without a known manager are roots; a reporting loop is cut where it closes. */
export function OrgChart({ agents }: { agents: readonly AgentRecord[] }) {
  const ids = new Set(agents.map((agent) => agent.id));
  const reports = new Map<string, AgentRecord[]>();
  for (const agent of agents) {
    const manager = agent.reportsTo && ids.has(agent.reportsTo) && agent.reportsTo !== agent.id ? agent.reportsTo : "";
    reports.set(manager, [...(reports.get(manager) ?? []), agent]);
  }
  const drawn = new Set<string>();
  const branch = (manager: string): VNode | null => {
    const under = (reports.get(manager) ?? []).filter((agent) => !drawn.has(agent.id));
    if (under.length === 0) return null;
    for (const agent of under) drawn.add(agent.id);
    return html`<ul>
      ${under.map(
        (agent) => html`<li key=${agent.id}>
          <a href=${pageHref("crew", agent.id)}>${agent.emoji ? `${agent.emoji} ` : ""}${agent.name}</a>
          <span class="meta"> ${agent.role ?? "no role"}${agent.squad ? ` · ${agent.squad}` : ""}</span>
          ${branch(agent.id)}
        </li>`,
      )}
    </ul>`;
  };
  let tree = branch("");
  // Everyone in a loop (a reports to b reports to a) has no root: start from the first of them.
  const loose = agents.filter((agent) => !drawn.has(agent.id));
  if (loose.length) tree = html`${tree}${branch(loose[0]!.reportsTo ?? "")}`;
  if (!tree) return html`<p class="empty">No agents in the organisation file yet.</p>`;
  return html`<div class="org-chart">${tree}</div>`;
}
