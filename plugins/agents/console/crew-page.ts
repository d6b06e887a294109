// The Crew page (`/console/crew`): every agent with its health, model, squad and reporting
// line; registering the agents the gateway does not know; the organisation chart; creating
// an agent from a persona template; squad packs. `/console/crew/<agentId>` is one agent.
import { html, muster, mountComponent, pageHref, useResource, useRoute, useState, useStylesheet, ActionButton, Badge, DataTable, ErrorNote, PageHeader, Section } from "@muster/console";
import { AgentPage } from "./agent-page.ts";
import { ApprovalNotice, type ApprovalRecord } from "./approval-notice.ts";
import { healthLabel, loadCrew, type CrewMember, type GatewayLink } from "./crew-data.ts";
import { FactoryForm } from "./factory-form.ts";
import { OrgChart } from "./org-chart.ts";
import { PacksSection } from "./packs-section.ts";

const CREW_EVENTS = ["agents.*"];

function CrewPage() {
  useStylesheet("/dashboard/plugins/agents/crew.css");
  const route = useRoute();
  if (route.rest[0]) return html`<${AgentPage} key=${route.rest[0]} agentId=${route.rest[0]} />`;
  return html`<${CrewList} />`;
}

function GatewayLine({ gateway }: { gateway: GatewayLink }) {
  const tone = gateway.state === "connected" ? "ok" : "warn";
  return html`<p class="meta">Gateway: <${Badge} tone=${tone}>${gateway.state}<//>${gateway.lastError ? ` · ${gateway.lastError}` : ""}</p>`;
}

function RegisterMissing({ count, onDone }: { count: number; onDone: () => void }) {
  const [approval, setApproval] = useState<ApprovalRecord | undefined>(undefined);
  if (count === 0 && !approval) return null;
  const request = async () => {
    const result = await muster.postAgentsRegisterMissing();
    setApproval(result.approval);
    onDone();
  };
  return html`<div class="register-missing">
    ${count > 0
      ? html`<p>${count === 1 ? "One agent is" : `${count} agents are`} not registered with the gateway and cannot run.</p>
          <${ActionButton} label="Register missing agents" tone="primary" onAction=${request} />`
      : null}
    <${ApprovalNotice} approval=${approval} what="The registration was requested." />
  </div>`;
}

function CrewList() {
  const crew = useResource(loadCrew, { events: CREW_EVENTS });
  const members = crew.data?.members;
  const gateway = crew.data?.gateway;
  const unregistered = members?.filter((member) => member.health?.registered === false).length ?? 0;
  const columns = [
    {
      label: "Agent",
      render: (m: CrewMember) => html`<a href=${pageHref("crew", m.agent.id)}>${m.agent.emoji ? `${m.agent.emoji} ` : ""}${m.agent.name}</a> <span class="meta">${m.agent.id}</span>`,
    },
    {
      label: "Health",
      render: (m: CrewMember) => {
        const label = healthLabel(m.health, gateway!);
        return html`<${Badge} tone=${label.tone} title=${label.detail}>${label.text}<//>`;
      },
    },
    { label: "Model", render: (m: CrewMember) => m.health?.model ?? m.agent.model ?? "—" },
    { label: "Squad", render: (m: CrewMember) => m.agent.squad ?? "—" },
    { label: "Reports to", render: (m: CrewMember) => (m.agent.reportsTo ? html`<a href=${pageHref("crew", m.agent.reportsTo)}>${m.agent.reportsTo}</a>` : "—") },
    { label: "Role", render: (m: CrewMember) => m.agent.role ?? "—" },
  ];
  return html`<div class="page crew" data-page="crew">
    <${PageHeader} title="Crew" description="The agents, their health and who they report to." />
    <${ErrorNote} error=${crew.error} />
    <div class="stack">
      <${Section} title="Agents">
        ${gateway ? html`<${GatewayLine} gateway=${gateway} />` : null}
        <${RegisterMissing} count=${unregistered} onDone=${() => void crew.reload()} />
        <${DataTable} caption="Agents" captionHidden=${true} rows=${members} rowKey=${(m: CrewMember) => m.agent.id} columns=${columns}
          empty="No agents: the organisation file (company/org_structure.yaml) names none yet." />
      <//>
      <div class="grid-2">
        <${Section} title="Organisation chart">${members ? html`<${OrgChart} agents=${members.map((m) => m.agent)} />` : null}<//>
        <${Section} title="Squad packs"><${PacksSection} onInstalled=${() => void crew.reload()} /><//>
      </div>
      <${Section} title="New agent"><${FactoryForm} agents=${members?.map((m) => m.agent) ?? []} onCreated=${() => void crew.reload()} /><//>
    </div>
  </div>`;
}

export default mountComponent(CrewPage);
