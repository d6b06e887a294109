// Several gateways (DESIGN §16) against two fake gateways on 127.0.0.1: each agent's calls
// reach its own gateway only (chat, council, crons, dispatch, the approval inbox), lists are
// merged with each row's gateway, /api/health reports each link, and a gateway that stops
// takes only its own agents down.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { chatPlugin } from "../../plugins/chat/index.ts";
import { gatewayPlugin } from "../../plugins/gateway/index.ts";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { FAST } from "../plugins/chat/chat-helpers.ts";
import { approvalFor, decide } from "../plugins/gateway-approvals/rig.ts";
import type { ApiBody } from "@muster/plugin/testing";

const TOKEN_A = "token-east-0123456789";
const TOKEN_B = "token-west-0123456789";

interface Ctx {
  east: FakeGateway;
  west: FakeGateway;
  h: TestHost;
}
const t = suite<Ctx>("several gateways");

type Health = ApiBody<"getHealth">;
const health = async (h: TestHost) => (await h.json<Health>("/api/health")).body;
const link = async (h: TestHost, name: string) => (await health(h)).gateways.find((g) => g.name === name);
const chat = (h: TestHost, agentId: string, message = `hello ${agentId}`) => h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { agentId, message } });
const agentsOf = (gw: FakeGateway, method: string) => gw.requests(method).map((r) => r.params?.agentId ?? /^agent:([^:]+):/.exec(r.params?.sessionKey ?? "")?.[1]);

t.before(async (ctx) => {
  // "main" is on both: the first configured gateway (east) wins it.
  ctx.east = await FakeGateway.start({ token: TOKEN_A, agents: [{ id: "main" }, { id: "odin" }], tickIntervalMs: 5_000 });
  ctx.west = await FakeGateway.start({ token: TOKEN_B, agents: [{ id: "main" }, { id: "loki" }], tickIntervalMs: 5_000 });
  ctx.east.onChat((agentId) => ({ text: `east ${agentId}` }));
  ctx.west.onChat((agentId) => ({ text: `west ${agentId}` }));
  ctx.h = await startTestHost({
    // Through the environment, as an operator sets it: names in GATEWAY_URL, tokens by name.
    env: { GATEWAY_URL: `east=${ctx.east.url},west=${ctx.west.url}`, GATEWAY_TOKEN_EAST: TOKEN_A, GATEWAY_TOKEN_WEST: TOKEN_B },
    config: { gatewayUrl: undefined, gatewayTimings: FAST, owner: "daniel" },
  });
  await waitUntil(async () => (await health(ctx.h)).gateways.every((g) => g.state === "connected"), { timeoutMs: 10_000, label: "both gateways connected" });
  // Each link's agents are learnt on connect.
  await waitUntil(async () => {
    const agents = (await ctx.h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).body.agents;
    return ["odin", "loki"].every((id) => agents.some((a) => a.id === id && a.gateway));
  }, { timeoutMs: 5_000, label: "agents learnt from both gateways" });
});
t.after(async ({ east, west, h }) => {
  await h.stop();
  await east.stop();
  await west.stop();
  removeHome(h.home);
});

t("/api/health: the spec's gateway (aggregate) and each link by name", async ({ h, east, west }) => {
  const body = await health(h);
  assert.is(body.gateway.state, "connected");
  assert.equal(
    body.gateways.map((g) => [g.name, g.state, g.url]),
    [
      ["east", "connected", east.url],
      ["west", "connected", west.url],
    ],
  );
});

t("chat to an agent on each gateway reaches that gateway only; an id on both goes to the first", async ({ h, east, west }) => {
  const before = [east.requests("chat.send").length, west.requests("chat.send").length];
  const odin = await chat(h, "odin");
  assert.is(odin.status, 200, JSON.stringify(odin.body));
  assert.is(odin.body.mode === "single" && odin.body.reply.text, "east odin");
  const loki = await chat(h, "loki");
  assert.is(loki.status, 200, JSON.stringify(loki.body));
  assert.is(loki.body.mode === "single" && loki.body.reply.text, "west loki");
  const main = await chat(h, "main");
  assert.is(main.body.mode === "single" && main.body.reply.text, "east main");
  assert.equal(agentsOf(east, "chat.send").slice(before[0]), ["odin", "main"]);
  assert.equal(agentsOf(west, "chat.send").slice(before[1]), ["loki"]);
});

t("lists are merged, each agent and session tagged with its gateway", async ({ h }) => {
  const agents = (await h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).body.agents;
  const byId = Object.fromEntries(agents.map((a) => [a.id, a.gateway]));
  assert.equal([byId.odin, byId.loki, byId.main], ["east", "west", "east"]);
  const sessions = await waitUntil(async () => {
    const res = await h.json<{ sessions: Array<{ key: string; gateway?: string }> }>("/api/gateway/sessions");
    assert.is(res.status, 200, JSON.stringify(res.body));
    const s = res.body.sessions;
    return s.some((r) => r.key.startsWith("agent:odin:")) && s.some((r) => r.key.startsWith("agent:loki:")) ? s : null;
  }, { label: "sessions of both gateways listed" });
  for (const row of sessions) {
    const agent = /^agent:([^:]+):/.exec(row.key)?.[1];
    if (agent === "odin") assert.is(row.gateway, "east");
    if (agent === "loki") assert.is(row.gateway, "west");
  }
});

t("GET /api/agents carries each agent's gateway", async ({ h }) => {
  mkdirSync(join(h.workspace, "company"), { recursive: true });
  writeFileSync(join(h.workspace, "company", "org_structure.yaml"), "org:\n  owner: daniel\n  agents:\n    odin:\n      role: chief\n    loki:\n      role: builder\n");
  const agents = await waitUntil(async () => {
    const list = (await h.json<ApiBody<"getAgents">>("/api/agents")).body.agents;
    return list.length === 2 ? list : null;
  }, { timeoutMs: 10_000, label: "the crew read the organisation file" });
  assert.equal(Object.fromEntries(agents.map((a) => [a.id, a.gateway])), { odin: "east", loki: "west" });
  assert.is((await h.json<ApiBody<"getAgentsById">>("/api/agents/loki")).body.agent.gateway, "west");
});

t("council, dispatch and crons reach each member's own gateway", async ({ h, east, west }) => {
  const before = { east: east.requests("chat.send").length, west: west.requests("chat.send").length, eastAgent: east.requests("agent").length, westAgent: west.requests("agent").length };
  const council = await h.json<ApiBody<"postCouncilSession">>("/api/council/session", { method: "POST", body: { topic: "Ship on Friday?", agents: ["odin", "loki"], rounds: 1 } });
  assert.is(council.status, 202, JSON.stringify(council.body));
  await waitUntil(async () => (await h.json<ApiBody<"getCouncilSessionById">>(`/api/council/session/${council.body.session.id}`)).body.session.status !== "running", { timeoutMs: 10_000, label: "council finished" });
  assert.ok(agentsOf(east, "chat.send").slice(before.east).every((a) => a === "odin"), "east saw only odin");
  assert.ok(agentsOf(west, "chat.send").slice(before.west).every((a) => a === "loki"), "west saw only loki");
  assert.ok(agentsOf(west, "chat.send").slice(before.west).length > 0, "loki took part");

  const task = await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "Write the notes", assignedTo: "loki" } });
  assert.is(task.status, 201, JSON.stringify(task.body));
  const sent = await h.json<ApiBody<"postDispatch">>("/api/dispatch", { method: "POST", body: { taskId: task.body.id } });
  assert.is(sent.status, 202, JSON.stringify(sent.body));
  await waitUntil(() => west.requests("chat.send").some((r) => r.params.sessionKey === `agent:loki:dispatch-${task.body.id}`), { label: "dispatch on west" });
  assert.not.ok(east.requests("chat.send").some((r) => String(r.params.sessionKey).includes(task.body.id)), "nothing dispatched on east");

  const job = await h.json<ApiBody<"postCrons">>("/api/crons", { method: "POST", body: { name: "Report", agentId: "odin", cron: "0 9 * * *", message: "marker-east-cron" } });
  assert.is(job.status, 201, JSON.stringify(job.body));
  assert.is((await h.json("/api/crons", { method: "PATCH", body: { id: job.body.job.id, action: "run" } })).status, 202);
  await waitUntil(() => east.requests("agent").some((r) => r.params.message === "marker-east-cron"), { label: "cron run on east" });
  assert.not.ok(west.requests("agent").slice(before.westAgent).some((r) => r.params.message === "marker-east-cron"), "the cron ran on east only");
});

t("the one approval inbox: a request from each gateway is resolved on the gateway that raised it", async ({ h, east, west }) => {
  west.raiseApproval("exec", { command: "touch w.txt", agentId: "loki", sessionKey: "agent:loki:main" }, { id: "west-1" });
  east.raiseApproval("exec", { command: "touch e.txt", agentId: "odin", sessionKey: "agent:odin:main" }, { id: "east-1" });
  const fromWest = await approvalFor(h, "west-1");
  const fromEast = await approvalFor(h, "east-1");
  assert.is((await decide(h, fromWest.id, "approved")).status, 200);
  assert.is((await decide(h, fromEast.id, "rejected")).status, 200);
  await waitUntil(() => west.approvals.size === 0 && east.approvals.size === 0, { label: "both settled" });
  assert.equal(west.requests("exec.approval.resolve").map((r) => r.params), [{ id: "west-1", decision: "allow-once" }]);
  assert.equal(east.requests("exec.approval.resolve").map((r) => r.params), [{ id: "east-1", decision: "deny" }]);
});

t("a gateway that stops takes only its agents down: theirs 503 GATEWAY_UNAVAILABLE and offline, the other's still chat", async ({ h, east, west }) => {
  await west.stop();
  try {
    await waitUntil(async () => (await link(h, "west"))?.state === "down", { timeoutMs: 5_000, label: "west down" });
    const body = await health(h);
    assert.is(body.gateway.state, "connected", "the aggregate stays connected while a link is");
    assert.match(body.gateway.lastError ?? "", /west down/);
    assert.is((await link(h, "east"))?.state, "connected");
    const odin = await chat(h, "odin");
    assert.is(odin.status, 200, JSON.stringify(odin.body));
    const loki = await chat(h, "loki");
    assert.is(loki.status, 503, JSON.stringify(loki.body));
    assert.is(loki.body.error?.code, "GATEWAY_UNAVAILABLE");
    const agents = (await h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).body.agents;
    assert.is(agents.find((a) => a.id === "loki")?.state, "offline");
    assert.is.not(agents.find((a) => a.id === "odin")?.state, "offline");
  } finally {
    await west.listen();
  }
  await waitUntil(async () => (await link(h, "west"))?.state === "connected", { timeoutMs: 10_000, label: "west back" });
  assert.is((await chat(h, "loki")).status, 200);
});

t.run();

const one = suite("one gateway, as before");

one("one link named default: /api/health lists it beside the unchanged gateway; agents carry no gateway field", async () => {
  const gw = await FakeGateway.start({ token: TOKEN_A, agents: [{ id: "main" }], tickIntervalMs: 5_000 });
  const h = await startTestHost({ config: { gatewayUrl: gw.url, gatewayToken: TOKEN_A, gatewayTimings: FAST } });
  try {
    await waitUntil(async () => (await health(h)).gateway.state === "connected", { timeoutMs: 10_000, label: "connected" });
    const body = await health(h);
    assert.equal(body.gateways, [{ name: "default", ...body.gateway }]);
    assert.is((await chat(h, "main")).status, 200);
    const agents = (await h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).body.agents;
    assert.ok(agents.length > 0 && agents.every((a) => !("gateway" in a)), JSON.stringify(agents));
  } finally {
    await h.stop();
    await gw.stop();
    removeHome(h.home);
  }
});

one.run();

const relearn = suite("several gateways: an agent no link is known to serve");

relearn("when a link's agents.list failed on connect, a call naming one of its agents asks the links again and reaches that gateway, not the default one", async () => {
  const east = await FakeGateway.start({ token: TOKEN_A, agents: [{ id: "odin" }], tickIntervalMs: 5_000 });
  const west = await FakeGateway.start({ token: TOKEN_B, agents: [{ id: "loki" }], tickIntervalMs: 5_000 });
  west.failWith("agents.list", { code: "UNAVAILABLE", message: "not yet" });
  // Chat without the agents plugin: the crew is not checked locally, so the router alone decides where loki's chat goes.
  const h = await startTestHost({
    plugins: [chatPlugin, gatewayPlugin] as never,
    env: { GATEWAY_URL: `east=${east.url},west=${west.url}`, GATEWAY_TOKEN_EAST: TOKEN_A, GATEWAY_TOKEN_WEST: TOKEN_B },
    config: { gatewayUrl: undefined, gatewayTimings: FAST },
  });
  try {
    await waitUntil(async () => (await health(h)).gateways.every((g) => g.state === "connected"), { timeoutMs: 10_000, label: "both gateways connected" });
    await waitUntil(() => west.requests("agents.list").length > 0, { timeoutMs: 10_000, label: "west asked for its agents on connect" });
    west.override("agents.list", undefined);
    const loki = await chat(h, "loki");
    assert.is(loki.status, 200, JSON.stringify(loki.body));
    assert.ok(west.requests("chat.send").some((r) => r.params?.agentId === "loki"), "loki's chat reached west");
    assert.not.ok(east.requests("chat.send").some((r) => r.params?.agentId === "loki"), "nothing for loki went to east");
  } finally {
    await h.stop();
    removeHome(h.home);
    await east.stop();
    await west.stop();
  }
});

relearn.run();
