// The organisation file reconciled with the gateway's agents.list (issue 27, item 3): agents
// the gateway does not know are flagged in health, refused by chat with a coded error before
// any turn reaches the gateway, and registered all at once by ONE approval.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../../helpers/wait.ts";
import { startAgentsRig, type AgentsRig } from "./agents-rig.ts";
import { decideApproval } from "@muster/plugin/testing";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ rig: AgentsRig }>("agents: register the crew the gateway does not know");
t.before(async (ctx) => {
  ctx.rig = await startAgentsRig();
});
t.after(async ({ rig }) => rig.close());

const health = async (rig: AgentsRig) => (await rig.h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).body.agents;
const registeredFlags = async (rig: AgentsRig) => Object.fromEntries((await health(rig)).map((a) => [a.id, a.registered]));
const chat = (rig: AgentsRig, agentId: string) => rig.h.json<Extract<ApiBody<"postChat">, { mode: "single" }>>("/api/chat", { method: "POST", body: { message: "hello", agentId } });

t("health flags the organisation's agents the gateway does not know (registered: false), the gateway's own true", async ({ rig }) => {
  const flags = await waitUntil(async () => {
    const f = await registeredFlags(rig);
    return f.main === true ? f : null;
  }, { timeoutMs: 10_000, label: "agents.list read" });
  assert.equal(flags, { main: true, odin: false, thor: false, loki: false, freya: false });
  // The state stays the spec's (idle: no session); the flag is what tells it from a healthy idle agent.
  assert.is((await health(rig)).find((a) => a.id === "loki")?.state, "idle");
});

t("chat: an unregistered agent of the organisation is 409 AGENT_NOT_REGISTERED with the fix, before any chat.send", async ({ rig }) => {
  const sendsBefore = rig.gw.requests("chat.send").length;
  const r = await chat(rig, "loki");
  assert.is(r.status, 409, JSON.stringify(r.body));
  assert.is(r.body.error?.code, "AGENT_NOT_REGISTERED");
  assert.match(String(r.body.error?.message), "POST /api/agents/register-missing");
  assert.is(rig.gw.requests("chat.send").length, sendsBefore, "the gateway was not asked");
  const party = await rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "hi", agentIds: ["main", "thor"], mode: "party" } });
  assert.is(party.status, 409);
  assert.is(party.body.error?.code, "AGENT_NOT_REGISTERED");
  assert.match(String(party.body.error?.message), "thor");
  const unknown = await chat(rig, "nobody");
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error?.code, "AGENT_NOT_FOUND");
  assert.is((await rig.h.json<ApiBody<"getChatSessions">>("/api/chat/sessions")).body.sessions.length, 0, "nothing stored");
});

t("ONE approval registers every missing agent (one the gateway learnt meanwhile is skipped); chat then answers", async ({ rig }) => {
  const r = await rig.h.json<ApiBody<"postAgentsRegisterMissing">>("/api/agents/register-missing", { method: "POST" });
  assert.is(r.status, 202, JSON.stringify(r.body));
  assert.equal([...r.body.agents].sort(), ["freya", "loki", "odin", "thor"]);
  assert.is(r.body.approval.status, "pending");
  assert.is(r.body.approval.command, "agents.register", "the whole Approval record");
  assert.is(rig.gw.requests("agents.create").length, 0, "nothing registered before the approval");
  const approval = (await rig.h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${r.body.approval.id}`)).body.approval;
  assert.equal((approval.payload as { agents: { agentId: string }[] }).agents.map((a) => a.agentId).sort(), ["freya", "loki", "odin", "thor"]);

  // Someone registers thor by hand before the approval: approving must not fail on it.
  rig.gw.setAgents([...rig.gw.agentList, { id: "thor", name: "thor" }]);
  const approve = await decideApproval(rig.h, String(r.body.approval.id), "approved");
  assert.is(approve.status, 200);
  assert.is(approve.body.approval.executionStatus, "succeeded", JSON.stringify(approve.body.approval.executionError));
  const results = (approve.body.approval.executionResult as { results: { agentId: string; status: string }[] }).results;
  assert.equal(Object.fromEntries(results.map((x) => [x.agentId, x.status])), { freya: "created", loki: "created", odin: "created", thor: "exists" });
  assert.equal(rig.gw.requests("agents.create").map((q) => q.params.name).sort(), ["freya", "loki", "odin"]);
  const created = rig.gw.requests("agents.create").find((q) => q.params.name === "loki")!.params;
  assert.equal(created, { name: "loki", workspace: `${rig.h.workspace}/agents/loki`, model: "m-small" });

  // The fake gateway's agents.list now names the whole crew, and health says so.
  assert.equal(rig.gw.agentList.map((a) => a.id).sort(), ["freya", "loki", "main", "odin", "thor"]);
  assert.equal(await registeredFlags(rig), { main: true, odin: true, thor: true, loki: true, freya: true });
  const answered = await chat(rig, "loki");
  assert.is(answered.status, 200, JSON.stringify(answered.body));
  assert.is(answered.body.reply.agentId, "loki");

  const again = await rig.h.json<ApiBody<"postAgentsRegisterMissing">>("/api/agents/register-missing", { method: "POST" });
  assert.is(again.status, 409);
  assert.is(again.body.error?.code, "AGENTS_ALL_REGISTERED");
});

t("gateway down: chat with an unknown agent is still 404, a known one 503; register-missing 503", async ({ rig }) => {
  await rig.gw.stop();
  await waitUntil(async () => (await rig.h.json<ApiBody<"getHealth">>("/api/health")).body.gateway.state !== "connected", { timeoutMs: 10_000, label: "gateway down" });
  const unknown = await chat(rig, "nobody");
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error?.code, "AGENT_NOT_FOUND");
  const known = await chat(rig, "loki");
  assert.is(known.status, 503);
  assert.is(known.body.error?.code, "GATEWAY_UNAVAILABLE");
  const register = await rig.h.json<ApiBody<"postAgentsRegisterMissing">>("/api/agents/register-missing", { method: "POST" });
  assert.is(register.status, 503);
  assert.is(register.body.error?.code, "GATEWAY_UNAVAILABLE");
});

t.run();
