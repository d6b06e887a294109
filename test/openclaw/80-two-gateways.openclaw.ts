// Several gateways (DESIGN §16) against two REAL gateways: the suite's shared one ("first":
// main, helper) and a second one this file starts for itself ("second": main, helper, west)
// and always stops. Chat reaches the agent on each (main is on both: the first configured
// gateway wins it), the merged session list says where each session lives, and a restart of
// the second gateway takes only its agents down (503 GATEWAY_UNAVAILABLE, offline) while
// the first's keep answering.
import { randomUUID } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ensureOpenClaw } from "../../scripts/openclaw-peer/install.ts";
import { startGatewayPeer, type GatewayPeer } from "../../scripts/openclaw-peer/gateway-peer.ts";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { boundedTest, CHAT_TEST_MS } from "./support/bounded.ts";
import { peer } from "./support/peer.ts";
import { withField } from "@muster/plugin/testing";

const test = suite("two gateways");
let second: GatewayPeer | undefined;
let h: TestHost | undefined;

const host = () => {
  if (!h) throw new Error("the Muster host did not start");
  return h;
};
const mark = (label: string) => `MARK-${label}-${randomUUID().slice(0, 8)}`;
const links = async () => (await host().json("/api/health")).body.gateways as Array<{ name: string; state: string; lastError?: string }>;
const waitForLink = (name: string, state: string, timeoutMs = 60_000) =>
  waitUntil(async () => (await links()).find((l) => l.name === name)?.state === state, { timeoutMs, label: `gateway ${name} ${state}` });
const chat = (agentId: string, marker: string) => host().json("/api/chat", { method: "POST", body: { message: `Please repeat ${marker}`, agentId } });
const agentHealth = async () => (await host().json("/api/agents/health")).body.agents as Array<{ id: string; state: string; gateway?: string }>;

test.before(async () => {
  const { gateway, model } = peer();
  const { entry } = await ensureOpenClaw(() => undefined);
  second = await startGatewayPeer({ entry, modelBaseUrl: model.baseUrl, agents: ["west"] });
  h = await startTestHost({
    config: {
      gateways: [
        { name: "first", url: gateway.url, token: gateway.token },
        { name: "second", url: second.url, token: second.token },
      ],
    },
  });
  await waitForLink("first", "connected");
  await waitForLink("second", "connected");
  await waitUntil(async () => (await agentHealth()).some((a) => a.id === "west" && a.gateway === "second"), { timeoutMs: 30_000, label: "west learnt on the second gateway" });
});

test.after(async () => {
  if (h) {
    await h.stop();
    removeHome(h.home);
  }
  await second?.dispose();
});

boundedTest(test, "chat reaches the agent on each gateway; sessions and agents are listed with their gateway", 2 * CHAT_TEST_MS, async () => {
  const onFirst = mark("first");
  const main = await chat("main", onFirst);
  assert.is(main.status, 200, JSON.stringify(main.body));
  assert.match(withField(main.body, "reply").reply.text, onFirst);
  const onSecond = mark("second");
  const west = await chat("west", onSecond);
  assert.is(west.status, 200, JSON.stringify(west.body));
  assert.match(withField(west.body, "reply").reply.text, onSecond);

  const sessions = (await host().json("/api/gateway/sessions")).body.sessions as Array<{ key: string; gateway?: string }>;
  const where = (key: string) => sessions.find((s) => s.key === key)?.gateway;
  assert.is(where(`agent:main:muster-${main.body.sessionId}`), "first", "main's session lives on the first gateway");
  assert.is(where(`agent:west:muster-${west.body.sessionId}`), "second", "west's session lives on the second gateway");
  const agents = await agentHealth();
  assert.equal(
    ["main", "helper", "west"].map((id) => agents.find((a) => a.id === id)?.gateway),
    ["first", "first", "second"],
  );
});

boundedTest(test, "a restart of the second gateway affects only its agents", 4 * CHAT_TEST_MS, async () => {
  await second!.stop();
  await waitForLink("second", "down", 30_000);
  const health = (await host().json("/api/health")).body;
  assert.is(health.gateway.state, "connected", "the aggregate stays connected while the first gateway is");
  assert.is((await links()).find((l) => l.name === "first")?.state, "connected");

  const west = await chat("west", mark("west-down"));
  assert.is(west.status, 503, JSON.stringify(west.body));
  assert.is(west.body.error?.code, "GATEWAY_UNAVAILABLE");
  const marker = mark("first-still");
  const main = await chat("main", marker);
  assert.is(main.status, 200, JSON.stringify(main.body));
  assert.match(withField(main.body, "reply").reply.text, marker);
  const agents = await agentHealth();
  assert.is(agents.find((a) => a.id === "west")?.state, "offline");
  assert.is.not(agents.find((a) => a.id === "main")?.state, "offline");

  await second!.start();
  await waitForLink("second", "connected", 60_000);
  const back = mark("west-back");
  const again = await chat("west", back);
  assert.is(again.status, 200, JSON.stringify(again.body));
  assert.match(withField(again.body, "reply").reply.text, back);
});

test.run();
