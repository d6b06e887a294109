// The agent factory through HTTP: templates, creation (files and organisation entry all or
// nothing), every refusal with nothing written, and registration with the gateway only
// after the agents.register approval.
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../../helpers/wait.ts";
import { ORG, startAgentsRig, type AgentsRig } from "./agents-rig.ts";
import { decideApproval } from "@muster/plugin/testing";
import type { ApiBody } from "@muster/plugin/testing";

const FILES = {
  "company/org_structure.yaml": ORG,
  "personas/execution/developer.md": "# Developer persona\nYou write code.",
  "personas/management/team-lead.md": "# Team lead persona",
  "personas/executive/notes.txt": "not a template",
};

const t = suite<{ rig: AgentsRig; created: unknown[] }>("agents: factory");
t.before(async (ctx) => {
  ctx.rig = await startAgentsRig({ files: FILES });
  ctx.created = [];
  // The fake gateway learns agents through agents.create, as the real one does.
  ctx.rig.gw.override("agents.create", (params) => {
    ctx.created.push(params);
    ctx.rig.gw.setAgents([{ id: "main" }, { id: params.name }]);
    return { ok: true, agentId: params.name, name: params.name, workspace: params.workspace };
  });
});
t.after(async ({ rig }) => rig.close());

const orgText = (rig: AgentsRig) => readFileSync(join(rig.h.workspace, "company/org_structure.yaml"), "utf8");
const pendingCount = async (rig: AgentsRig) => (await rig.h.json<ApiBody<"getApprovals">>("/api/approvals")).body.pendingTotal ?? (await rig.h.json<ApiBody<"getApprovals">>("/api/approvals")).body.pending.length;
const body = (over: Record<string, unknown> = {}) => ({ templateId: "developer", name: "Sif", agentId: "sif", model: "m-small", emoji: "🌾", squad: "dev", reportsTo: "thor", skills: ["docs", "typescript"], ...over });

t("GET /api/agents/factory lists personas/<tier>/*.md", async ({ rig }) => {
  const r = await rig.h.json<ApiBody<"getAgentsFactory">>("/api/agents/factory");
  assert.is(r.status, 200);
  assert.equal(r.body.templates, [
    { id: "team-lead", name: "Team Lead", tier: "management", path: "management/team-lead.md" },
    { id: "developer", name: "Developer", tier: "execution", path: "execution/developer.md" },
  ]);
});

t("refusals write nothing: existing id 409 (org file or gateway), bad ids 400, missing template 404, unknown reportsTo 404", async ({ rig }) => {
  const before = orgText(rig);
  const approvals = await pendingCount(rig);
  for (const [agentId, where] of [["loki", "organisation"], ["main", "gateway"]] as const) {
    const r = await rig.h.json<ApiBody<"postAgentsFactory">>("/api/agents/factory", { method: "POST", body: body({ agentId }) });
    assert.is(r.status, 409, agentId);
    assert.is(r.body.error?.code, "AGENT_ALREADY_EXISTS");
    assert.match(String(r.body.error?.message), where);
  }
  for (const agentId of ["Sif", "1sif", "sif!", "", "a".repeat(64), "../sif", "si f"]) {
    const r = await rig.h.json<ApiBody<"postAgentsFactory">>("/api/agents/factory", { method: "POST", body: body({ agentId }) });
    assert.is(r.status, 400, JSON.stringify(agentId));
    assert.is(r.body.error?.code, "VALIDATION_FAILED");
  }
  for (const bad of [{ name: "" }, { model: "" }, { templateId: undefined }, { extra: true }, { skills: "docs" }, { emoji: 7 }]) {
    const r = await rig.h.json<ApiBody<"postAgentsFactory">>("/api/agents/factory", { method: "POST", body: body(bad) });
    assert.is(r.status, 400, JSON.stringify(bad));
  }
  const noTemplate = await rig.h.json<ApiBody<"postAgentsFactory">>("/api/agents/factory", { method: "POST", body: body({ templateId: "poet" }) });
  assert.is(noTemplate.status, 404);
  assert.is(noTemplate.body.error?.code, "AGENT_TEMPLATE_NOT_FOUND");
  const noBoss = await rig.h.json<ApiBody<"postAgentsFactory">>("/api/agents/factory", { method: "POST", body: body({ reportsTo: "nobody" }) });
  assert.is(noBoss.status, 404);
  assert.is(noBoss.body.error?.code, "AGENT_NOT_FOUND");
  assert.is(orgText(rig), before, "organisation file unchanged");
  assert.not.ok(existsSync(join(rig.h.workspace, "agents/sif")));
  assert.not.ok(existsSync(join(rig.h.workspace, "agents/loki")));
  assert.is(await pendingCount(rig), approvals, "no approval requested");
});

t("a failure half-way (a target path that cannot be written) leaves nothing behind", async ({ rig }) => {
  const before = orgText(rig);
  // HEARTBEAT.md is written after IDENTITY.md and AGENTS.md: a directory in its place fails the third rename.
  mkdirSync(join(rig.h.workspace, "agents/bragi/HEARTBEAT.md"), { recursive: true });
  const r = await rig.h.json<ApiBody<"postAgentsFactory">>("/api/agents/factory", { method: "POST", body: body({ agentId: "bragi", name: "Bragi" }) });
  assert.is(r.status, 500);
  assert.is(r.body.error?.code, "AGENT_FILES_WRITE_FAILED");
  assert.equal(readdirSync(join(rig.h.workspace, "agents/bragi")), ["HEARTBEAT.md"], "only what was there before");
  assert.is(orgText(rig), before);
  assert.equal(readdirSync(join(rig.h.workspace, "company")), ["org_structure.yaml"], "no temporary file left");
  assert.is((await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/bragi")).status, 404);
});

t("creation: files and organisation entry, a pending agents.register approval; approving adds the agent to the gateway", async ({ rig, created }) => {
  const r = await rig.h.json<ApiBody<"postAgentsFactory">>("/api/agents/factory", { method: "POST", body: body() });
  assert.is(r.status, 201, JSON.stringify(r.body));
  assert.is(r.body.agent.id, "sif");
  assert.equal([r.body.agent.tier, r.body.agent.role, r.body.agent.emoji, r.body.agent.reportsTo, r.body.agent.squad], [3, "developer", "🌾", "thor", "dev"]);
  assert.equal(r.body.files, ["agents/sif/IDENTITY.md", "agents/sif/AGENTS.md", "agents/sif/HEARTBEAT.md", "company/org_structure.yaml"]);
  // The whole Approval record, as every route that creates an approval answers (issue 23): the
  // same as GET /api/approvals/{id} shows it, payload included.
  assert.is(r.body.approval.status, "pending");
  assert.is(r.body.approval.command, "agents.register");
  assert.equal(r.body.approval, (await rig.h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${r.body.approval.id}`)).body.approval);
  assert.equal((r.body.approval.payload as { agents: { agentId: string }[] }).agents.map((a) => a.agentId), ["sif"]);
  assert.match(readFileSync(join(rig.h.workspace, "agents/sif/AGENTS.md"), "utf8"), /# Developer persona/);
  assert.match(readFileSync(join(rig.h.workspace, "agents/sif/IDENTITY.md"), "utf8"), /\*\*Reports to:\*\* thor/);
  const org = orgText(rig);
  assert.match(org, /sif:/);
  assert.match(org, /members: \[ thor, loki, freya, sif \]|- sif/);
  assert.match(org, /# Test Crew|name: Test Crew/);
  assert.equal((await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/sif")).body.agent.skills, ["docs", "typescript"]);
  assert.is(created.length, 0, "the gateway is not touched before the approval");

  const again = await rig.h.json<ApiBody<"postAgentsFactory">>("/api/agents/factory", { method: "POST", body: body() });
  assert.is(again.status, 409);

  const approve = await decideApproval(rig.h, String(r.body.approval.id), "approved");
  assert.is(approve.status, 200);
  assert.is(approve.body.approval.executionStatus, "succeeded", JSON.stringify(approve.body.approval.executionError));
  assert.is(created.length, 1);
  assert.equal(created[0], { name: "sif", workspace: join(rig.h.workspace, "agents/sif"), model: "m-small", emoji: "🌾" });
  await waitUntil(async () => (await rig.h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).body.agents.some((a) => a.id === "sif"), { timeoutMs: 5_000 });
});

t("ten concurrent creations of one id: exactly one 201, the rest 409, one organisation entry", async ({ rig }) => {
  const answers = await Promise.all(Array.from({ length: 10 }, () => rig.h.json<ApiBody<"postAgentsFactory">>("/api/agents/factory", { method: "POST", body: body({ agentId: "vali", name: "Vali", reportsTo: null }) })));
  assert.equal(answers.map((a) => a.status).sort(), [201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
  for (const a of answers.filter((a) => a.status === 409)) assert.is(a.body.error?.code, "AGENT_ALREADY_EXISTS");
  assert.is(orgText(rig).match(/^ {4}vali:/gm)?.length, 1);
});

t("an organisation file that is not YAML: records keep their last state, the factory refuses with 422 and writes nothing", async ({ rig }) => {
  const { writeFileSync } = await import("node:fs");
  const before = (await rig.h.json<ApiBody<"getAgents">>("/api/agents")).body.agents.length;
  writeFileSync(join(rig.h.workspace, "company/org_structure.yaml"), "org: [unclosed\n  agents: {");
  const r = await rig.h.json<ApiBody<"postAgentsFactory">>("/api/agents/factory", { method: "POST", body: body({ agentId: "hod", name: "Hod", reportsTo: null }) });
  assert.is(r.status, 422);
  assert.is(r.body.error?.code, "AGENT_ORG_FILE_INVALID");
  assert.not.ok(existsSync(join(rig.h.workspace, "agents/hod")));
  const list = await rig.h.json<ApiBody<"getAgents">>("/api/agents");
  assert.is(list.status, 200);
  assert.is(list.body.agents.length, before);
  assert.is((await rig.h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).status, 200);
});

t.run();
