// Chat and council turns as cost events (DESIGN §14.7, issue 12 usage item 4): each turn is
// priced with the model it ran on (the gateway session's row from the agents plugin's
// snapshot, else the agent's configured model, else "unknown"), counts toward the agent's
// daily budget, and an agent over its budget is refused chat and council with 409
// BUDGET_EXCEEDED before anything is stored or sent to the gateway.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteFileTest, storedCostEvents } from "../../helpers/database-file.ts";
import { FakeGateway } from "../../helpers/fake-gateway.ts";
import { removeHome, startTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { AGENTS, FAST, startRig, TOKEN, waitForGateway, type Rig } from "../chat/chat-helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

/** 10,000 input tokens a turn: 100 cents on `fake-model` (the fake gateway's sessions), 300 on `acme/house-model`. */
const TURN_TOKENS = 10_000;
const usageConfig = {
  prices: [
    // Bare prefix: matches the gateway's `fake/fake-model` without its provider part.
    { prefix: "fake-model", inputUsdPerMillion: 100, outputUsdPerMillion: 0 },
    // Prefix with a provider: matches only names that carry it.
    { prefix: "acme/house-model", inputUsdPerMillion: 300, outputUsdPerMillion: 0 },
  ],
};
/** `main` has a configured model in the organisation file; the others have none. */
const ORG = "org:\n  owner: daniel\n  agents:\n    main:\n      role: chief_orchestrator\n      model: acme/house-model\n    helper:\n      role: product_lead\n";

function homeWithOrg(): { home: string; workspace: string } {
  const home = mkdtempSync(join(tmpdir(), "muster-home-"));
  const workspace = join(home, "workspace");
  mkdirSync(join(workspace, "company"), { recursive: true });
  writeFileSync(join(workspace, "company", "org_structure.yaml"), ORG);
  return { home, workspace };
}

/** Cost events as stored (the summary only has totals): model, cents, priced and action per event, oldest first. */
const costEvents = (h: TestHost, agentId: string) => storedCostEvents(h.home, agentId).map(({ model, estimatedCostCents, priced, action }) => ({ model, estimatedCostCents, priced, action }));

const todayCost = async (h: TestHost, agentId: string): Promise<number> => (await h.json<ApiBody<"getUsage">>("/api/usage")).body.today.byAgent[agentId]?.cost ?? 0;
const chat = (h: TestHost, body: unknown) => h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body });
const setBudget = (h: TestHost, agentId: string, dailyCents: number) => h.json<ApiBody<"putUsageBudgetsByAgentId">>(`/api/usage/budgets/${agentId}`, { method: "PUT", session: true, body: { dailyCents } });
const sent = (gw: FakeGateway, message: string) => gw.requests("chat.send").filter((r) => r.params.message === message || String(r.params.message).includes(message)).length;

const VOTE_ASK = "Vote on the proposal";
const MODERATOR_ASK = "the moderator of a council";

// ---------------------------------------------------------------------------------------
const t = suite<{ rig: Rig }>("crew costs: session models, budgets");

t.before(async (ctx) => {
  const { home, workspace } = homeWithOrg();
  ctx.rig = await startRig({ host: { home, workspace, config: { pluginConfig: { chat: { rateLimit: { perMinute: 1_000 } }, council: { rateLimit: { perMinute: 1_000 } }, usage: usageConfig } } } });
  // The organisation file is mirrored into the agents table at start.
  await waitUntil(async () => (await ctx.rig.h.json<ApiBody<"getAgentsById">>("/api/agents/main")).body?.agent?.model === "acme/house-model", { timeoutMs: 5_000, label: "main's record" });
});
t.after(async (ctx) => ctx.rig.close());
t.before.each(({ rig }) => {
  rig.gw.onChat((agentId, message) => {
    const text = message.includes(VOTE_ASK) ? '{"vote":"support","confidence":0.9,"reason":"fine"}' : message.includes(MODERATOR_ASK) ? "PROPOSAL: do it" : `ok from ${agentId}`;
    return { deltas: [text], usage: { input: TURN_TOKENS, output: 0 } };
  });
});

sqliteFileTest(t, "reads each cost event in muster.db (GET /api/usage shows totals only)")("a chat turn is a cost event with the session's model (provider/model) and its price; the summary counts it", async ({ rig }) => {
  const before = await todayCost(rig.h, "helper");
  const res = await chat(rig.h, { message: "price me", agentId: "helper" });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const events = costEvents(rig.h, "helper");
  assert.equal(events.at(-1), { model: "fake/fake-model", estimatedCostCents: 100, priced: 1, action: "session" });
  assert.is(await todayCost(rig.h, "helper"), before + 100);
});

sqliteFileTest(t, "reads each cost event in muster.db (GET /api/usage shows totals only)")("the session's model wins over the agent's configured one (main runs fake-model on the gateway)", async ({ rig }) => {
  const res = await chat(rig.h, { message: "which model", agentId: "main" });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(costEvents(rig.h, "main").at(-1)?.model, "fake/fake-model");
});

t("the price table matches with and without the provider/ prefix (POST /api/usage)", async ({ rig }) => {
  const post = (model: string) => rig.h.json<ApiBody<"postUsage">>("/api/usage", { method: "POST", body: { agentId: "pricing", model, action: "api_call", inputTokens: TURN_TOKENS } });
  const cases: Array<[string, number, boolean]> = [
    ["fake/fake-model", 100, true],
    ["fake-model-2", 100, true],
    ["acme/house-model", 300, true],
    ["acme/house-model-large", 300, true],
    ["other/house-model", 0, false], // a provider-qualified prefix does not match another provider
    ["house-model", 0, false],
  ];
  for (const [model, cents, priced] of cases) {
    const r = await post(model);
    assert.is(r.status, 201, model);
    assert.equal([r.body.event.estimatedCostCents, r.body.event.priced], [cents, priced], model);
  }
});

sqliteFileTest(t, "reads each cost event in muster.db (GET /api/usage shows totals only)")("chat counts toward the daily budget; over it: 409 BUDGET_EXCEEDED, nothing stored, nothing sent; a raise lets chat through", async ({ rig }) => {
  assert.is((await setBudget(rig.h, "scout", 100)).status, 200);
  const first = await chat(rig.h, { message: "spend it", agentId: "scout" });
  assert.is(first.status, 200, JSON.stringify(first.body));
  const status = await rig.h.json<ApiBody<"getUsageBudgetsByAgentId">>("/api/usage/budgets/scout");
  assert.equal(status.body.budget, { agentId: "scout", spentCents: 100, budgetCents: 100, exceeded: true });

  const sessionsBefore = (await rig.h.json<ApiBody<"getChatSessions">>("/api/chat/sessions?limit=500")).body.sessions.length;
  for (const body of [
    { message: "over budget single", agentId: "scout" },
    { message: "over budget follow-up", agentId: "scout", sessionId: first.body.sessionId },
    { message: "over budget party", mode: "party", agentIds: ["helper", "scout"] },
  ]) {
    const r = await chat(rig.h, body);
    assert.is(r.status, 409, JSON.stringify(body));
    assert.is(r.body.error?.code, "BUDGET_EXCEEDED", JSON.stringify(body));
    assert.is(sent(rig.gw, body.message), 0, `${body.message} reached the gateway`);
  }
  assert.is((await rig.h.json<ApiBody<"getChatSessions">>("/api/chat/sessions?limit=500")).body.sessions.length, sessionsBefore, "no session stored");
  const detail = await rig.h.json<ApiBody<"getChatSessionsById">>(`/api/chat/sessions/${first.body.sessionId}`);
  assert.is(detail.body.messages.length, 2, "the refused follow-up stored no message");
  assert.is(costEvents(rig.h, "scout").length, 1);

  assert.is((await setBudget(rig.h, "scout", 1_000)).status, 200);
  const after = await chat(rig.h, { message: "after the raise", agentId: "scout" });
  assert.is(after.status, 200, JSON.stringify(after.body));
});

t("a party member that reaches its budget mid-party is refused before its next turn; the turns before it stay stored", async ({ rig }) => {
  const spentBefore = (await rig.h.json<ApiBody<"getUsageBudgetsByAgentId">>("/api/usage/budgets/scout")).body.budget.spentCents;
  assert.is((await setBudget(rig.h, "scout", spentBefore + 100)).status, 200);
  const res = await chat(rig.h, { message: "two rounds please", mode: "party", agentIds: ["helper", "scout"], rounds: 2 });
  assert.is(res.status, 409, JSON.stringify(res.body));
  assert.is(res.body.error?.code, "BUDGET_EXCEEDED");
  const party = (await rig.h.json<ApiBody<"getChatSessions">>("/api/chat/sessions?limit=500")).body.sessions.find((s) => s.title === "two rounds please");
  assert.ok(party, "party is there");
  const messages = (await rig.h.json<ApiBody<"getChatSessionsById">>(`/api/chat/sessions/${party.id}`)).body.messages.map((m) => [m.role, m.agentId, m.round]);
  assert.equal(messages, [["user", null, null], ["agent", "helper", 1], ["agent", "scout", 1], ["agent", "helper", 2]]);
  assert.is(rig.gw.requests("chat.send").filter((r) => r.params.sessionKey === `agent:scout:muster-${party.id}`).length, 1, "scout's second turn never reached the gateway");
  assert.is((await setBudget(rig.h, "scout", 1_000_000)).status, 200);
});

sqliteFileTest(t, "reads each cost event in muster.db (GET /api/usage shows totals only)")("a council records a priced cost event per turn, each with the session's model", async ({ rig }) => {
  const before = { main: costEvents(rig.h, "main").length, helper: costEvents(rig.h, "helper").length };
  const res = await rig.h.json<ApiBody<"postCouncilSession">>("/api/council/session", { method: "POST", body: { topic: "Price the council", agents: ["main", "helper"], rounds: 1 } });
  assert.is(res.status, 202, JSON.stringify(res.body));
  const done = await waitUntil(async () => {
    const s = (await rig.h.json<ApiBody<"getCouncilSessionById">>(`/api/council/session/${res.body.session.id}`)).body.session;
    return s.status !== "running" ? s : null;
  }, { timeoutMs: 5_000, label: "council finished" });
  assert.is(done.status, "completed", JSON.stringify(done.error));
  // main: position, proposal, vote; helper: position, vote.
  const main = costEvents(rig.h, "main").slice(before.main);
  const helper = costEvents(rig.h, "helper").slice(before.helper);
  assert.is(main.length, 3);
  assert.is(helper.length, 2);
  for (const e of [...main, ...helper]) assert.equal(e, { model: "fake/fake-model", estimatedCostCents: 100, priced: 1, action: "session" });
});

t("council with a member over its daily budget: 409 BUDGET_EXCEEDED, no session stored, nothing sent", async ({ rig }) => {
  assert.is((await setBudget(rig.h, "helper", 0)).status, 200);
  try {
    const sessions = async () => (await rig.h.json<ApiBody<"getCouncilSession">>("/api/council/session?limit=500")).body.sessions.length;
    const before = await sessions();
    const sends = rig.gw.requests("chat.send").length;
    const res = await rig.h.json<ApiBody<"postCouncilSession">>("/api/council/session", { method: "POST", body: { topic: "Refused council", agents: ["main", "helper"], rounds: 1 } });
    assert.is(res.status, 409, JSON.stringify(res.body));
    assert.is(res.body.error?.code, "BUDGET_EXCEEDED");
    assert.is(await sessions(), before);
    assert.is(rig.gw.requests("chat.send").length, sends);
  } finally {
    await setBudget(rig.h, "helper", 1_000_000);
  }
});

t("a council member that reaches its budget mid-session fails the session (BUDGET_EXCEEDED) before its next turn", async ({ rig }) => {
  const spent = (await rig.h.json<ApiBody<"getUsageBudgetsByAgentId">>("/api/usage/budgets/helper")).body.budget.spentCents;
  // helper's position spends its whole budget; its vote is refused.
  assert.is((await setBudget(rig.h, "helper", spent + 100)).status, 200);
  try {
    const res = await rig.h.json<ApiBody<"postCouncilSession">>("/api/council/session", { method: "POST", body: { topic: "Budget mid-session", agents: ["main", "helper"], rounds: 1 } });
    assert.is(res.status, 202, JSON.stringify(res.body));
    const id = res.body.session.id;
    const done = await waitUntil(async () => {
      const s = (await rig.h.json<ApiBody<"getCouncilSessionById">>(`/api/council/session/${id}`)).body.session;
      return s.status !== "running" ? s : null;
    }, { timeoutMs: 5_000, label: "council finished" });
    assert.is(done.status, "failed");
    assert.match(String(done.error), /^BUDGET_EXCEEDED: /);
    assert.equal(done.votes.map((v) => v.agentId), ["main"], "main voted, helper was refused");
    const helperVotes = rig.gw.requests("chat.send").filter((r) => r.params.sessionKey === `agent:helper:council-${id}` && String(r.params.message).includes(VOTE_ASK));
    assert.is(helperVotes.length, 0);
  } finally {
    await setBudget(rig.h, "helper", 1_000_000);
  }
});

// ---------------------------------------------------------------------------------------
const f = suite<{ gw: FakeGateway; h: TestHost }>("crew costs: model fallbacks");

f.before(async (ctx) => {
  ctx.gw = await FakeGateway.start({ token: TOKEN, agents: AGENTS, tickIntervalMs: 5_000 });
  // No sessions.changed for this host: a new session's row is not in the snapshot when its turn ends.
  ctx.gw.override("sessions.subscribe", () => ({ subscribed: true }));
  const { home, workspace } = homeWithOrg();
  ctx.h = await startTestHost({ home, workspace, config: { gatewayUrl: ctx.gw.url, gatewayToken: TOKEN, gatewayTimings: FAST, pluginConfig: { usage: usageConfig } } });
  await waitForGateway(ctx.h, "connected");
  await waitUntil(async () => (await ctx.h.json<ApiBody<"getAgentsById">>("/api/agents/main")).body?.agent?.model === "acme/house-model", { timeoutMs: 5_000, label: "main's record" });
  ctx.gw.onChat(() => ({ deltas: ["ok"], usage: { input: TURN_TOKENS, output: 0 } }));
});
f.after(async ({ gw, h }) => {
  await h.stop();
  await gw.stop();
  removeHome(h.home);
});

sqliteFileTest(f, "reads each cost event in muster.db (GET /api/usage shows totals only)")("no session row: the agent's configured model prices the turn", async ({ h }) => {
  const res = await chat(h, { message: "fallback", agentId: "main" });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(costEvents(h, "main").at(-1), { model: "acme/house-model", estimatedCostCents: 300, priced: 1, action: "session" });
});

sqliteFileTest(f, "reads each cost event in muster.db (GET /api/usage shows totals only)")("nothing known about the model: recorded as unknown, unpriced (and the chat still answers)", async ({ h }) => {
  const res = await chat(h, { message: "no model", agentId: "scout" });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(costEvents(h, "scout").at(-1), { model: "unknown", estimatedCostCents: 0, priced: 0, action: "session" });
});

t.run();
f.run();
