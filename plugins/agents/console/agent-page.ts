// One agent (`/console/crew/<agentId>`): its record and health, heartbeat, sessions,
// activity, cost, tool policy and sandbox, and who covers for it.
import { html, muster, pageHref, useResource, Badge, ErrorNote, PageHeader, Section } from "@muster/console";
import { healthLabel } from "./crew-data.ts";
import { ActivityPanel, CostPanel, CoveragePanel, HeartbeatPanel, SessionsPanel, ToolPolicyPanel } from "./agent-sections.ts";

export function AgentPage({ agentId }: { agentId: string }) {
  const record = useResource(() => Promise.all([muster.getAgentsById({ id: agentId }), muster.getAgentsHealth()]), { events: ["agents.*"] });
  const back = html`<a href=${pageHref("crew")}>All agents</a>`;
  if (record.error && !record.data) {
    return html`<div class="page crew-agent"><${PageHeader} title=${`Agent ${agentId}`} actions=${back} /><${ErrorNote} error=${record.error} /></div>`;
  }
  if (!record.data) return html`<div class="page crew-agent"><p class="meta" aria-live="polite">Loading ${agentId}…</p></div>`;
  const [{ agent }, health] = record.data;
  const label = healthLabel(health.agents.find((entry) => entry.id === agent.id), health.gateway);
  return html`<div class="page crew-agent" data-page="crew-agent">
    <${PageHeader} title=${`${agent.emoji ? `${agent.emoji} ` : ""}${agent.name}`} description=${`${agent.id} · ${agent.role ?? "no role"}`} actions=${back} />
    <div class="stack">
      <${Section} title="Overview">
        <dl class="facts">
          <dt>Health</dt><dd><${Badge} tone=${label.tone}>${label.text}<//> <span class="meta">${label.detail}</span></dd>
          <dt>Model</dt><dd>${agent.model ?? "—"}</dd>
          <dt>Squad</dt><dd>${agent.squad ?? "—"}</dd>
          <dt>Reports to</dt><dd>${agent.reportsTo ? html`<a href=${pageHref("crew", agent.reportsTo)}>${agent.reportsTo}</a>` : "—"}</dd>
          <dt>Tier</dt><dd>${agent.tier ?? "—"}</dd>
          <dt>Skills</dt><dd>${agent.skills.join(", ") || "—"}</dd>
          <dt>Status</dt><dd>${agent.status}</dd>
        </dl>
      <//>
      <div class="grid-2">
        <${Section} title="Heartbeat"><${HeartbeatPanel} agentId=${agent.id} /><//>
        <${Section} title="Cost"><${CostPanel} agentId=${agent.id} /><//>
      </div>
      <${Section} title="Activity"><${ActivityPanel} agentId=${agent.id} /><//>
      <${Section} title="Sessions"><${SessionsPanel} agentId=${agent.id} /><//>
      <div class="grid-2">
        <${Section} title="Tool policy and sandbox"><${ToolPolicyPanel} agent=${agent} /><//>
        <${Section} title="Coverage"><${CoveragePanel} agentId=${agent.id} /><//>
      </div>
    </div>
  </div>`;
}
