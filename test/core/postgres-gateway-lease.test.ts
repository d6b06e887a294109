// Team mode (issue 25): one gateway link per deployment. Two instances on one PostgreSQL
// database, one fake gateway on 127.0.0.1: the gateway sees one operator connection; the
// instance without it forwards calls, chats and cron runs to the one holding it and receives
// its events and state; the link moves to the other instance when its holder stops, or dies
// (SIGKILL of a child process: its heartbeat stops, nothing is released), and a call to a
// dead holder fails 503 instead of hanging.
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { definePlugin, defineRoutes, hostTokens, z } from "@muster/plugin";
import type { ApiBody } from "@muster/plugin/testing";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { approvalsPlugin } from "../../plugins/approvals/index.ts";
import { chatPlugin } from "../../plugins/chat/index.ts";
import { cronsPlugin } from "../../plugins/crons/index.ts";
import { gatewayPlugin } from "../../plugins/gateway/index.ts";
import { gatewayApprovalsPlugin } from "../../plugins/gateway-approvals/index.ts";
import { notificationsPlugin } from "../../plugins/notifications/index.ts";
import { streamPlugin } from "../../plugins/stream/index.ts";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { startMusterChild, type MusterChild } from "../helpers/muster-child.ts";
import { openSse } from "../helpers/sse-client.ts";
import { removeHome, startTestHost, type StartOptions, type TestHost } from "../helpers/start-test-host.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";
import { sleep, waitUntil } from "../helpers/wait.ts";
import { AGENTS, FAST, TOKEN, chatStream, waitForGateway } from "../plugins/chat/chat-helpers.ts";
import { EXEC_REQUEST, approvalFor, approvalsFor } from "../plugins/gateway-approvals/rig.ts";

const { t, test, database } = postgresSuite("one gateway link per deployment on PostgreSQL");

const authenticated = (gw: FakeGateway) => [...gw.connections].filter((c) => c.authenticated).length;
const health = async (h: TestHost | MusterChild) => (await (h as TestHost).json<ApiBody<"getHealth">>("/api/health")).body.gateway;

/** Calls the gateway as a plugin does (`hostTokens.gateway`): the two-stage `agent` with `onAccepted`, and a call aborted by its signal. */
const gatewayProbe = definePlugin({
  id: "gw-probe",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/gw-probe"],
  routes: defineRoutes({
    deps: { gateway: hostTokens.gateway },
    mount(router, { gateway }) {
      router.post("/api/gw-probe/agent", { summary: "agent with onAccepted", body: z.object({ message: z.string() }) }, async ({ body }) => {
        const accepted: unknown[] = [];
        const final = await gateway.agent({ message: body.message, agentId: "main", idempotencyKey: `probe-${Date.now()}` }, { timeoutMs: 20_000, onAccepted: (a) => accepted.push(a.status) });
        return { accepted, status: final.status, text: final.result?.payloads?.map((p) => p.text).join("") ?? null };
      });
      router.post("/api/gw-probe/abort", { summary: "a call aborted after 200 ms", body: z.object({}) }, async () => {
        const started = Date.now();
        try {
          await gateway.call("cron.list", {}, { timeoutMs: 20_000, signal: AbortSignal.timeout(200) });
          return { outcome: "answered", ms: Date.now() - started };
        } catch (error) {
          return { outcome: (error as Error).name, ms: Date.now() - started };
        }
      });
    },
  }),
});

const PLUGINS = [chatPlugin, cronsPlugin, gatewayPlugin, streamPlugin, gatewayProbe];

async function withGateway(body: (gw: FakeGateway, options: StartOptions, url: string) => Promise<void>, callTimeoutMs = 20_000): Promise<void> {
  const url = await database();
  const gw = await FakeGateway.start({ token: TOKEN, agents: AGENTS, tickIntervalMs: 5_000 });
  const options: StartOptions = { plugins: PLUGINS as never, env: { DATABASE_URL: url }, config: { gatewayUrl: gw.url, gatewayToken: TOKEN, gatewayTimings: FAST, pluginConfig: { gateway: { callTimeoutMs } } } };
  try {
    await body(gw, options, url);
  } finally {
    await gw.stop();
  }
}

test("two instances, one operator connection: the other instance's calls, chat (and its streams) and cron runs go through the holder; both report the link's state", async () => {
  await withGateway(async (gw, options) => {
    const hosts: TestHost[] = [];
    try {
      const a = await startTestHost(options);
      hosts.push(a);
      await waitForGateway(a, "connected");
      const b = await startTestHost(options);
      hosts.push(b);
      await waitForGateway(b, "connected");
      await sleep(2_500); // more than two lease checks of B
      assert.is(authenticated(gw), 1, "the gateway sees one operator client for the deployment");
      assert.is(gw.opened, 1, "the instance without the lease opened a socket too");
      for (const h of [a, b]) {
        const state = await health(h);
        assert.is(state.state, "connected");
        assert.is(state.url, gw.url);
      }

      // Plain calls through B: forwarded, answered as on A.
      gw.setSessions([{ key: "agent:main:main", agentId: "main", updatedAt: 1 }]);
      const sessions = await b.json<ApiBody<"getGatewaySessions">>("/api/gateway/sessions");
      assert.is(sessions.status, 200, JSON.stringify(sessions.body));
      assert.equal(sessions.body.sessions.map((s) => s.key), ["agent:main:main"]);
      // The gateway's refusal: the same 502 GATEWAY_ERROR with its code and message in details.
      gw.failWith("cron.list", { code: "INVALID_REQUEST", message: "no crons today" });
      const [onA, onB] = [await a.json<{ error: { code: string; details: unknown } }>("/api/gateway/crons"), await b.json<{ error: { code: string; details: unknown } }>("/api/gateway/crons")];
      assert.is(onB.status, 502);
      assert.is(onB.body.error.code, "GATEWAY_ERROR");
      assert.equal(onB.body.error, onA.body.error);
      // No answer within the call's timeout: 504 GATEWAY_TIMEOUT, as on A.
      gw.neverAnswer("cron.list");
      const timedOut = await b.json<{ error: { code: string } }>("/api/gateway/crons");
      assert.is(timedOut.status, 504, JSON.stringify(timedOut.body));
      assert.is(timedOut.body.error.code, "GATEWAY_TIMEOUT");
      gw.override("cron.list", undefined);

      // The two-stage agent call through B: the accepted answer, then the final one; a call
      // aborted by its signal rejects at once with the signal's reason.
      gw.onChat((_agent, message) => `agent says ${message}`);
      const agent = await b.json<{ accepted: string[]; status: string; text: string }>("/api/gw-probe/agent", { method: "POST", body: { message: "hello" } });
      assert.is(agent.status, 200, JSON.stringify(agent.body));
      assert.equal(agent.body.accepted, ["accepted"]);
      assert.is(agent.body.status, "ok");
      assert.is(agent.body.text, "agent says hello");
      gw.neverAnswer("cron.list");
      const aborted = await b.json<{ outcome: string; ms: number }>("/api/gw-probe/abort", { method: "POST", body: {} });
      assert.is(aborted.body.outcome, "TimeoutError");
      gw.override("cron.list", undefined);

      // A chat through B: chat.send is forwarded, the reply streams back from the holder's chat
      // events, and B's live stream carries the turn's events.
      const live = await openSse(b.url);
      try {
        gw.onChat(() => ({ deltas: ["one ", "two ", "three"] }));
        const answer = await chatStream(b, { message: "Count", agentId: "main" });
        assert.is(answer.status, 200);
        await answer.ended;
        assert.equal(answer.frames.map((f) => f.type), ["start", "agent_start", "delta", "delta", "delta", "agent_done", "done"]);
        assert.is(answer.frames.at(-1).reply.text, "one two three");
        await live.next((f) => f.data?.type === "event" && f.data.name === "chat.turn.finished", 10_000, "the chat's finish on B's live stream");
      } finally {
        live.close();
      }

      // A cron run started through B: the two-stage agent call is forwarded and its run recorded.
      gw.onChat((_agent, message) => `done: ${message}`);
      const job = await b.json<ApiBody<"postCrons">>("/api/crons", { method: "POST", body: { name: "Report", agentId: "main", cron: "0 9 * * *", message: "the report" } });
      assert.is(job.status, 201, JSON.stringify(job.body));
      assert.is((await b.json("/api/crons", { method: "PATCH", body: { id: job.body.job.id, action: "run" } })).status, 202);
      await waitUntil(async () => (await b.json<ApiBody<"getCronsRuns">>(`/api/crons/runs?id=${job.body.job.id}`)).body.runs[0]?.status === "ok", { timeoutMs: 15_000, label: "the cron run through B" });
      assert.is(authenticated(gw), 1);
      assert.is(gw.opened, 1);

      // The holder stops: the other instance takes the link within seconds, and the gateway
      // still sees one client.
      await a.stop();
      removeHome(a.home);
      hosts.shift();
      await waitForGateway(b, "connected", 10_000);
      await waitUntil(() => authenticated(gw) === 1 && gw.opened === 2, { timeoutMs: 10_000, label: "B's own connection" });
      assert.is((await b.json("/api/gateway/sessions")).status, 200);
    } finally {
      for (const h of hosts) {
        await h.stop();
        removeHome(h.home);
      }
    }
  }, 3_000);
});

test("the holder killed (its heartbeat stops, nothing released): a call in flight through it fails 503 within its timeout, and the other instance takes the link within seconds", async () => {
  await withGateway(async (gw, options, url) => {
    const home = mkdtempSync(join(tmpdir(), "muster-gw-lease-"));
    mkdirSync(join(home, "workspace"));
    let child: MusterChild | undefined;
    let b: TestHost | undefined;
    try {
      // The child starts first, so it holds the lease; B forwards through it.
      child = await startMusterChild({ home, workspace: join(home, "workspace"), gatewayUrl: gw.url, gatewayToken: TOKEN, env: { DATABASE_URL: url, MUSTER_START_BUNDLE: "off" } });
      await waitUntil(async () => (await health(child!)).state === "connected", { timeoutMs: 20_000, label: "the child connected" });
      b = await startTestHost(options);
      await waitForGateway(b, "connected");
      await sleep(2_500);
      assert.is(authenticated(gw), 1);

      // A call the gateway holds forever, through B to the child; then the child is killed.
      gw.neverAnswer("cron.list");
      const started = Date.now();
      const inFlight = b.json<{ error: { code: string } }>("/api/gateway/crons");
      await waitUntil(() => gw.requests("cron.list").length === 1, { label: "the call reached the gateway" });
      await child.kill();
      // A call made now goes to the dead holder too: nobody takes it, and it fails 503 as well.
      const fresh = await b.json<{ error: { code: string } }>("/api/gateway/sessions");
      const failed = await inFlight;
      assert.is(failed.status, 503, JSON.stringify(failed.body));
      assert.is(failed.body.error.code, "GATEWAY_UNAVAILABLE");
      assert.ok(Date.now() - started < 20_000, "it waited past its timeout");
      if (fresh.status !== 200) {
        // (200 only if B had already taken the link over when it was made.)
        assert.is(fresh.status, 503, JSON.stringify(fresh.body));
        assert.is(fresh.body.error.code, "GATEWAY_UNAVAILABLE");
      }

      // B takes the link once the registry counts the child dead (5 s) and connects itself.
      await waitForGateway(b, "connected", 15_000);
      await waitUntil(() => authenticated(gw) === 1 && gw.opened === 2, { timeoutMs: 15_000, label: "B connected on its own" });
      gw.override("cron.list", undefined);
      gw.setSessions([]);
      assert.is((await b.json("/api/gateway/sessions")).status, 200);
    } finally {
      await child?.kill();
      await b?.stop();
      if (b) removeHome(b.home);
      rmSync(home, { recursive: true, force: true });
    }
  });
});

test("gateway approvals on two instances: every instance sees the relayed events, yet a request becomes one approval, and the reconciliation on connect runs once per deployment", async () => {
  await withGateway(async (gw, options) => {
    const inbox = { ...options, plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin, gatewayApprovalsPlugin] as never };
    const hosts: TestHost[] = [];
    try {
      // Pending in the gateway before any instance connects: the reconciliation admits it.
      gw.raiseApproval("exec", EXEC_REQUEST, { id: "before" });
      const a = await startTestHost(inbox);
      hosts.push(a);
      await waitForGateway(a, "connected");
      await approvalFor(a, "before");
      const b = await startTestHost(inbox);
      hosts.push(b);
      await waitForGateway(b, "connected");
      // Raised while both listen: each instance gets the event, one claim wins.
      gw.raiseApproval("exec", { ...EXEC_REQUEST, command: "touch later.txt" }, { id: "later" });
      await approvalFor(b, "later");
      await sleep(2_500);
      for (const id of ["before", "later"]) assert.is((await approvalsFor(b, id)).length, 1, `approvals for ${id}`);
      // B's link came up connected too, but only the primary instance reconciled (before, each
      // instance listed the pending requests on its own connect).
      assert.is(gw.requests("exec.approval.list").length, 1, "exec.approval.list calls");
    } finally {
      for (const h of hosts) {
        await h.stop();
        removeHome(h.home);
      }
    }
  });
});


test("several gateways on two instances: each link is leased on its own (one operator connection per gateway), and the other instance's chat reaches each agent's own gateway through the holders", async () => {
  const url = await database();
  const east = await FakeGateway.start({ token: "east-token", agents: [{ id: "odin" }], tickIntervalMs: 5_000 });
  const west = await FakeGateway.start({ token: "west-token", agents: [{ id: "loki" }], tickIntervalMs: 5_000 });
  east.onChat((agentId) => ({ text: `east ${agentId}` }));
  west.onChat((agentId) => ({ text: `west ${agentId}` }));
  const options: StartOptions = {
    plugins: PLUGINS as never,
    env: { DATABASE_URL: url, GATEWAY_URL: `east=${east.url},west=${west.url}`, GATEWAY_TOKEN_EAST: "east-token", GATEWAY_TOKEN_WEST: "west-token" },
    config: { gatewayUrl: undefined, gatewayTimings: FAST },
  };
  const hosts: TestHost[] = [];
  const links = async (h: TestHost) => (await h.json<ApiBody<"getHealth">>("/api/health")).body.gateways;
  try {
    for (let i = 0; i < 2; i++) {
      const h = await startTestHost(options);
      hosts.push(h);
      await waitUntil(async () => (await links(h)).every((l) => l.state === "connected"), { timeoutMs: 20_000, label: `both links connected on instance ${i + 1}` });
    }
    await sleep(2_500); // more than two lease checks of the second instance
    assert.is(authenticated(east), 1, "east sees one operator client for the deployment");
    assert.is(authenticated(west), 1, "west sees one operator client for the deployment");
    for (const h of hosts) assert.equal((await links(h)).map((l) => [l.name, l.state]), [["east", "connected"], ["west", "connected"]]);
    // Through each instance, each agent's chat goes to its own gateway, whichever instance holds it.
    for (const h of hosts) {
      for (const [agentId, gw] of [["odin", east], ["loki", west]] as const) {
        const before = gw.requests("chat.send").length + gw.requests("agent").length;
        const reply = await h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { agentId, message: `hello ${agentId}` } });
        assert.is(reply.status, 200, JSON.stringify(reply.body));
        assert.ok(gw.requests("chat.send").length + gw.requests("agent").length > before, `${agentId}'s chat reached its gateway`);
      }
    }
  } finally {
    for (const h of hosts.reverse()) {
      await h.stop();
      removeHome(h.home);
    }
    await east.stop();
    await west.stop();
  }
});

t.run();
