// Create an agent from a persona template (POST /api/agents/factory): the files and the
// organisation entry are written at once, and the gateway learns of the agent only after
// the agents.register approval this returns is approved.
import { html, muster, useResource, useState, Form, Field, ErrorNote } from "@muster/console";
import { ApprovalNotice, type ApprovalRecord } from "./approval-notice.ts";
import type { AgentRecord } from "./crew-data.ts";

const optional = (fields: FormData, name: string) => {
  const value = String(fields.get(name) ?? "").trim();
  return value === "" ? undefined : value;
};

export function FactoryForm({ agents, onCreated }: { agents: readonly AgentRecord[]; onCreated: () => void }) {
  const templates = useResource(() => muster.getAgentsFactory());
  const [approval, setApproval] = useState<ApprovalRecord | undefined>(undefined);
  const [created, setCreated] = useState("");
  const create = async (fields: FormData) => {
    setApproval(undefined);
    const skills = (optional(fields, "skills") ?? "").split(",").map((skill) => skill.trim()).filter(Boolean);
    const result = await muster.postAgentsFactory({
      body: {
        templateId: String(fields.get("templateId") ?? ""),
        name: String(fields.get("name") ?? ""),
        agentId: String(fields.get("agentId") ?? ""),
        model: String(fields.get("model") ?? ""),
        squad: optional(fields, "squad") ?? null,
        reportsTo: optional(fields, "reportsTo") ?? null,
        ...(optional(fields, "role") ? { role: optional(fields, "role") } : {}),
        ...(skills.length ? { skills } : {}),
      },
    });
    setCreated(result.agent.id);
    setApproval(result.approval);
    onCreated();
  };
  const list = templates.data?.templates;
  if (list && list.length === 0) {
    return html`<p class="empty">No persona templates: add Markdown files under <code>personas/executive</code>, <code>personas/management</code> or <code>personas/execution</code> in the workspace.</p>`;
  }
  return html`<div class="stack">
    <${ErrorNote} error=${templates.error} />
    <${Form} label="Create an agent from a persona template" submitLabel="Create agent" onSubmit=${create} class="inline">
      <${Field} as="select" label="Persona template" name="templateId" required=${true} options=${(list ?? []).map((t) => ({ value: t.id, label: `${t.name} (${t.tier})` }))} />
      <${Field} label="Name" name="name" required=${true} />
      <${Field} label="Agent id" name="agentId" required=${true} hint="Lower case: letters, digits, - and _." autocomplete="off" />
      <${Field} label="Model" name="model" required=${true} />
      <${Field} label="Squad" name="squad" />
      <${Field} as="select" label="Reports to" name="reportsTo" options=${[{ value: "", label: "Nobody" }, ...agents.map((a) => ({ value: a.id, label: a.name }))]} />
      <${Field} label="Role" name="role" hint="snake_case, e.g. developer" />
      <${Field} label="Skills" name="skills" hint="Comma separated" />
    <//>
    <${ApprovalNotice} approval=${approval} what=${`Agent ${created} was written to the workspace.`} />
  </div>`;
}
