// The parts of an agent's page: heartbeat, sessions, activity, cost, tool policy and
// sandbox, coverage. Each loads its own data, so one failing source (the gateway being
// down) leaves the others readable, and shows the API's code where it failed.
import { html, muster, pageHref, useResource, useState, ActionButton, Badge, DataTable, ErrorNote, Field, Form, Time } from "@muster/console";
import { ApprovalNotice, type ApprovalRecord } from "./approval-notice.ts";
import type { AgentRecord } from "./crew-data.ts";

type Heartbeat = Awaited<ReturnType<typeof muster.postHeartbeat>>;
type Session = Awaited<ReturnType<typeof muster.getGatewaySessions>>["sessions"][number];
type Activity = Awaited<ReturnType<typeof muster.getActivities>>[number];

const cents = (value: number | null | undefined) => (value === null || value === undefined ? "—" : `$${(value / 100).toFixed(2)}`);

export function HeartbeatPanel({ agentId }: { agentId: string }) {
  const [result, setResult] = useState<Heartbeat | undefined>(undefined);
  const check = async (nudge: boolean) => setResult(await muster.postHeartbeat({ body: { agentId, nudge } }));
  return html`<div class="stack">
    <div class="toolbar">
      <${ActionButton} label="Check heartbeat" onAction=${() => check(false)} />
      <${ActionButton} label=${`Nudge ${agentId}`} onAction=${() => check(true)} />
    </div>
    ${result
      ? html`<p role="status">${result.agent.state} at <${Time} when=${result.checkedAt} />${result.nudged ? " · nudged" : ""}${result.reason ? ` · ${result.reason}` : ""}</p>`
      : html`<p class="meta">A nudge sends a stalled or stuck agent its HEARTBEAT.md prompt through the gateway.</p>`}
  </div>`;
}

export function SessionsPanel({ agentId }: { agentId: string }) {
  const sessions = useResource(() => muster.getGatewaySessions(), { events: ["agents.*"] });
  const mine = sessions.data?.sessions.filter((session) => session.agentId === agentId);
  return html`<${ErrorNote} error=${sessions.error} prefix="The gateway's sessions could not be read." />
    <${DataTable} caption="Sessions" captionHidden=${true} rows=${sessions.error ? [] : mine} rowKey=${(s: Session) => s.key} pageSize=${20} empty="No sessions."
      columns=${[
        { label: "Session", render: (s: Session) => html`<code>${s.key}</code>` },
        { label: "Model", render: (s: Session) => s.model ?? "—" },
        { label: "Last activity", render: (s: Session) => html`<${Time} when=${s.lastActivity} />` },
      ]} />`;
}

export function ActivityPanel({ agentId }: { agentId: string }) {
  const activity = useResource(() => muster.getActivities({ query: { agentId, limit: 100 } }), { events: ["activities.activity.created"] });
  return html`<${ErrorNote} error=${activity.error} />
    <${DataTable} caption="Activity" captionHidden=${true} rows=${activity.data} rowKey=${(a: Activity) => a.id} pageSize=${20} empty="No activity logged yet."
      columns=${[
        { label: "When", render: (a: Activity) => html`<${Time} when=${a.timestamp} />` },
        { label: "Action", key: "action" },
        { label: "Target", render: (a: Activity) => a.target ?? "" },
        { label: "Details", render: (a: Activity) => a.details ?? "" },
      ]} />`;
}

export function CostPanel({ agentId }: { agentId: string }) {
  const budget = useResource(() => muster.getUsageBudgetsByAgentId({ agentId }));
  const usage = useResource(() => muster.getUsage());
  const today = usage.data?.today.byAgent[agentId];
  const spent = budget.data?.budget;
  return html`<${ErrorNote} error=${budget.error ?? usage.error} />
    <dl class="figures">
      <div><dt>Spent today</dt><dd>${cents(spent?.spentCents)}</dd></div>
      <div><dt>Daily budget</dt><dd>${spent?.budgetCents === null ? "none" : cents(spent?.budgetCents)}${spent?.exceeded ? html` <${Badge} tone="bad">exceeded<//>` : null}</dd></div>
      <div><dt>Tokens today</dt><dd>${today ? `${today.input} in · ${today.output} out` : "0"}</dd></div>
    </dl>
    <p class="meta"><a href=${pageHref("usage")}>Usage and budgets</a></p>`;
}

const names = (fields: FormData, name: string) => String(fields.get(name) ?? "").split(",").map((tool) => tool.trim()).filter(Boolean);

export function ToolPolicyPanel({ agent }: { agent: AgentRecord }) {
  const [approval, setApproval] = useState<ApprovalRecord | undefined>(undefined);
  const request = async (fields: FormData) => {
    setApproval(undefined);
    const sandbox = String(fields.get("sandbox")) === "container" ? "container" : "off";
    const result = await muster.patchAgentsById({ id: agent.id, body: { tools: { allow: names(fields, "allow"), deny: names(fields, "deny") }, sandbox } });
    setApproval(result.approval);
  };
  return html`<dl class="facts">
      <dt>Allowed tools</dt><dd>${agent.tools.allow.join(", ") || "no allow list (all but the denied)"}</dd>
      <dt>Denied tools</dt><dd>${agent.tools.deny.join(", ") || "none"}</dd>
      <dt>Sandbox</dt><dd>${agent.sandbox}</dd>
    </dl>
    <${Form} label=${`Request a change of ${agent.id}'s tools and sandbox`} submitLabel="Request change" onSubmit=${request} resetOnSuccess=${false}>
      <${Field} label="Allowed tools" name="allow" value=${agent.tools.allow.join(", ")} hint="Comma separated; empty for no allow list." />
      <${Field} label="Denied tools" name="deny" value=${agent.tools.deny.join(", ")} hint="Comma separated." />
      <${Field} as="select" label="Sandbox" name="sandbox" value=${agent.sandbox} options=${["off", "container"]} />
    <//>
    <${ApprovalNotice} approval=${approval} what="The change was requested; the agent keeps its tools until it is approved." />`;
}

type Candidate = Awaited<ReturnType<typeof muster.getAgentsCoverage>>["candidates"][number];
export function CoveragePanel({ agentId }: { agentId: string }) {
  const coverage = useResource(() => muster.getAgentsCoverage({ query: { agent: agentId } }), { events: ["agents.*"] });
  return html`<p class="meta">Who can stand in while ${agentId} is absent: shared skills first, then the same tier.</p>
    <${ErrorNote} error=${coverage.error} />
    <${DataTable} caption="Coverage" captionHidden=${true} rows=${coverage.data?.candidates} rowKey=${(c: Candidate) => c.id} pageSize=${10} empty="Nobody shares a skill or the tier."
      columns=${[
        { label: "Agent", render: (c: Candidate) => html`<a href=${pageHref("crew", c.id)}>${c.id}</a>` },
        { label: "Shared skills", render: (c: Candidate) => c.sharedSkills.join(", ") || "—" },
        { label: "Same tier", render: (c: Candidate) => (c.sameTier ? "yes" : "no") },
        { label: "Same squad", render: (c: Candidate) => (c.sameSquad ? "yes" : "no") },
      ]} />`;
}
