// The gateway client when the gateway misbehaves (bad-input catalogue group G): slow, silent,
// closing mid-call, sending garbage, oversized, unknown-id or out-of-order frames. The host
// never crashes, the connection survives what it can, and calls get stable error codes.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { definePlugin } from "@muster/plugin";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { FAST_GATEWAY_TIMINGS, gatewayHealth, gatewayProbe, probeCall, probedHost, probeRecord, waitForGatewayState } from "../helpers/gateway-probe.ts";
import { withTestHost, type StartOptions, type TestHost } from "../helpers/start-test-host.ts";
import { sleep, waitUntil } from "../helpers/wait.ts";
import { WebSocketServer } from "ws";


// The probe's own routes (test/helpers/gateway-probe.ts), outside the OpenAPI: the agent method's
// two raw res frames, and the payloads a `ctx.gateway.events` stream read.
interface AgentProbeAnswer {
  accepted: { status: string; runId: string }[];
  final: { status: string; result: { payloads: { text: string }[]; meta: { agentMeta: { usage: { output: number } } } } };
}
interface StreamProbeAnswer {
  payloads: unknown[];
  endedAfterAbort: boolean;
}

const t = suite("gateway client faults");
const TOKEN = "fake-token-0123456789";

/** Runs `fn` with a fake gateway and a host connected to it; both are always stopped. */
async function connected(options: Parameters<typeof FakeGateway.start>[0], fn: (h: TestHost, gw: FakeGateway) => Promise<void>, extra: StartOptions["config"] = {}, plugins = [gatewayProbe]) {
  const gw = await FakeGateway.start({ token: TOKEN, ...options });
  try {
    await withTestHost(probedHost(gw.url, TOKEN, extra, plugins), async (h) => {
      await waitForGatewayState(h, "connected");
      await fn(h, gw);
    });
  } finally {
    await gw.stop();
  }
}

t("a call the gateway does not answer in time: 504 GATEWAY_TIMEOUT (per-call timeout, and the configured default); a late answer is dropped", async () => {
  await connected(
    {},
    async (h, gw) => {
      gw.neverAnswer("status");
      const perCall = await probeCall(h, "status", {}, 150);
      assert.is(perCall.status, 504);
      assert.is(perCall.body.error!.code, "GATEWAY_TIMEOUT");
      assert.match(perCall.body.error!.message, "did not answer status within 150 ms");
      const byDefault = await probeCall(h, "status");
      assert.is(byDefault.status, 504, "the configured gatewayRequestTimeoutMs applies");
      // The gateway answers the timed-out id after all: dropped, the connection stays.
      const late = gw.requests("status")[0];
      gw.sendToAll({ type: "res", id: late.id, ok: true, payload: { late: true } });
      const after = await probeCall(h, "health");
      assert.is(after.status, 200);
      assert.is(gw.opened, 1);
    },
    { gatewayRequestTimeoutMs: 200 },
  );
});

t("ok:false is 502 GATEWAY_ERROR with the gateway's code, message and details", async () => {
  await connected({}, async (h, gw) => {
    gw.failWith("cron.remove", { code: "INVALID_REQUEST", message: "Automation not found: x.", details: { code: "CRON_JOB_NOT_FOUND", jobId: "x" } });
    const res = await probeCall(h, "cron.remove", { id: "x" });
    assert.is(res.status, 502);
    assert.is(res.body.error!.code, "GATEWAY_ERROR");
    assert.equal(res.body.error!.details, { code: "INVALID_REQUEST", message: "Automation not found: x.", details: { code: "CRON_JOB_NOT_FOUND", jobId: "x" } });
    const unknown = await probeCall(h, "no.such.method");
    assert.is(unknown.status, 502);
    assert.is(unknown.body.error!.details.message, "unknown method: no.such.method");
  });
});

t("the agent method: one call, two res frames (accepted, then final); the timeout covers the whole run", async () => {
  await connected({}, async (h, gw) => {
    const res = await h.json<AgentProbeAnswer>("/api/gateway-probe/agent", { method: "POST", body: { message: "hi", idempotencyKey: "run-1" } });
    assert.is(res.status, 200);
    assert.is(res.body.accepted.length, 1);
    assert.is(res.body.accepted[0]?.status, "accepted");
    assert.is(res.body.accepted[0]?.runId, "run-1");
    assert.is(res.body.final.status, "ok");
    assert.is(res.body.final.result.payloads[0]?.text, "Reply from main: hi");
    assert.ok(res.body.final.result.meta.agentMeta.usage.output > 0);
    // Accepted at once, but the run takes longer than the timeout: 504.
    gw.onChat(() => ({ deltas: ["slow"], delayMs: 1_000 }));
    const slow = await h.json("/api/gateway-probe/agent", { method: "POST", body: { message: "hi", idempotencyKey: "run-2", timeoutMs: 200 } });
    assert.is(slow.status, 504);
    assert.is(slow.body.error!.code, "GATEWAY_TIMEOUT");
    // The final answer arriving after the timeout is dropped; the connection stays.
    await waitUntil(async () => (await probeRecord(h)).events.some((e) => e.event === "chat" && e.payload.runId === "run-2" && e.payload.state === "final"), { label: "run-2 final" });
    assert.is((await probeCall(h, "health")).status, 200);
    assert.is(gw.opened, 1);
  });
});

t("chat events reach ctx.gateway listeners: status, deltas, final; a failing reply gives an error event; a throwing listener harms nobody", async () => {
  const thrower = definePlugin({ id: "throwing-listener", version: "1.0.0", host: "^1.0.0", onStart: (ctx) => void ctx.gateway.on("chat", () => { throw new Error("listener bug"); }) });
  await connected(
    {},
    async (h, gw) => {
      gw.onChat((agentId, message) => ({ deltas: ["He", "llo ", `${agentId}/${message}`] }));
      const sent = await probeCall(h, "chat.send", { sessionKey: "agent:main:main", message: "m1", idempotencyKey: "c-1" });
      assert.equal(sent.body.result, { runId: "c-1", status: "started" });
      await waitUntil(async () => (await probeRecord(h)).events.some((e) => e.event === "chat" && e.payload.state === "final"), { label: "final" });
      const chat = (await probeRecord(h)).events.filter((e) => e.event === "chat" && e.payload.runId === "c-1").map((e) => e.payload);
      assert.equal(chat.map((c) => c.state), ["status", "status", "delta", "delta", "delta", "final"]);
      assert.equal(chat.filter((c) => c.state === "delta").map((c) => c.deltaText), ["He", "llo ", "main/m1"]);
      assert.is(chat.at(-1).message.content[0].text, "Hello main/m1");
      gw.onChat(() => ({ deltas: ["partial"], error: "LLM request failed" }));
      await probeCall(h, "chat.send", { sessionKey: "agent:main:main", message: "m2", idempotencyKey: "c-2" });
      await waitUntil(async () => (await probeRecord(h)).events.some((e) => e.event === "chat" && e.payload.runId === "c-2" && e.payload.state === "error"), { label: "error event" });
    },
    {},
    [gatewayProbe, thrower],
  );
});

t("malformed frames (not JSON, wrong shapes, binary, unknown type) and an unknown res id are dropped; the same connection keeps working", async () => {
  await connected({}, async (h, gw) => {
    gw.sendToAll("{not json");
    gw.sendToAll("");
    gw.sendToAll("null");
    gw.sendToAll("[1,2,3]");
    gw.sendToAll(JSON.stringify({ type: "res" }));
    gw.sendToAll(JSON.stringify({ type: "res", id: "1", ok: false }));
    gw.sendToAll(JSON.stringify({ type: "event" }));
    gw.sendToAll(JSON.stringify({ type: "event", event: 42 }));
    gw.sendToAll(JSON.stringify({ type: "wat", id: "x" }));
    gw.sendToAll(JSON.stringify({ type: "res", id: "no-such-id", ok: true, payload: {} }));
    gw.sendToAll(Buffer.from([0xff, 0xfe, 0x00, 0x01]));
    gw.sendToAll(JSON.stringify({ type: "event", event: "custom", payload: { after: "garbage" } }));
    await waitUntil(async () => (await probeRecord(h)).events.some((e) => e.event === "custom"), { label: "custom event after the garbage" });
    assert.is((await probeCall(h, "health")).status, 200);
    assert.is(await gatewayHealth(h).then((g) => g.state), "connected");
    assert.is(gw.opened, 1, "no reconnect was needed");
  });
});

t("a frame over the negotiated maxPayload is dropped and the connection stays; one over the hard cap closes (1009) and the client reconnects", async () => {
  await connected({ maxPayload: 64 * 1024 }, async (h, gw) => {
    gw.sendToAll(JSON.stringify({ type: "event", event: "custom", payload: { big: "x".repeat(100 * 1024) } }));
    gw.sendToAll(JSON.stringify({ type: "event", event: "custom", payload: { small: true } }));
    await waitUntil(async () => (await probeRecord(h)).events.some((e) => e.event === "custom"), { label: "small custom event" });
    const customs = (await probeRecord(h)).events.filter((e) => e.event === "custom");
    assert.equal(customs.map((e) => e.payload), [{ small: true }], "the big one was dropped");
    assert.is(gw.opened, 1);
    // Over the 25 MiB hard cap (+ws slack): the socket refuses it, the client reconnects.
    gw.sendToAll("x".repeat(27 * 1024 * 1024));
    await waitUntil(() => gw.closes.some((c) => c.code === 1009), { label: "1009 close", timeoutMs: 5_000 });
    await waitUntil(() => gw.opened >= 2, { label: "reconnect" });
    await waitForGatewayState(h, "connected");
    assert.is((await probeCall(h, "health")).status, 200);
  });
});

t("out-of-order answers reach their own callers; out-of-order event seqs are delivered, not fatal", async () => {
  await connected({}, async (h, gw) => {
    gw.neverAnswer("status");
    let slowDone = false;
    const slowCall = probeCall(h, "status").then((r) => ((slowDone = true), r));
    await waitUntil(() => gw.requests("status").length === 1, { label: "status received" });
    // Asked second, answered first.
    const fast = await probeCall<{ agents: { id: string }[] }>(h, "agents.list");
    assert.is(fast.body.result.agents[0]?.id, "main");
    assert.not.ok(slowDone);
    const asked = gw.requests("status")[0];
    gw.sendToAll({ type: "res", id: asked.id, ok: true, payload: { answered: "late" } });
    const slow = await slowCall;
    assert.is(slow.status, 200);
    assert.equal(slow.body.result, { answered: "late" });
    gw.sendToAll({ type: "event", event: "custom", payload: { n: 1 }, seq: 500 });
    gw.sendToAll({ type: "event", event: "custom", payload: { n: 2 }, seq: 3 });
    await waitUntil(async () => (await probeRecord(h)).events.filter((e) => e.event === "custom").length === 2, { label: "both custom events" });
    assert.is(await gatewayHealth(h).then((g) => g.state), "connected");
  });
});

t("pending calls fail with 503 GATEWAY_UNAVAILABLE when the connection drops mid-call, then the client reconnects", async () => {
  await connected({}, async (h, gw) => {
    gw.neverAnswer("status");
    const waiting = probeCall(h, "status", {}, 10_000);
    await waitUntil(() => gw.requests("status").length === 1, { label: "status received" });
    gw.closeAll(1011, "internal error");
    const res = await waiting;
    assert.is(res.status, 503);
    assert.is(res.body.error!.code, "GATEWAY_UNAVAILABLE");
    await waitForGatewayState(h, "connected");
    gw.override("status", undefined);
    assert.is((await probeCall(h, "status")).status, 200);
  });
});

t("an abrupt drop (no close frame) mid-stream: down, then reconnected", async () => {
  await connected({}, async (h, gw) => {
    gw.onChat(() => ({ deltas: ["a", "b", "c"], delayMs: 100 }));
    await probeCall(h, "chat.send", { sessionKey: "agent:main:main", message: "m", idempotencyKey: "r-1" });
    gw.closeAll(1006, "", true);
    await waitUntil(() => gw.opened >= 2, { label: "reconnect" });
    await waitForGatewayState(h, "connected");
    const states = (await probeRecord(h)).states.map((s) => s.state);
    assert.ok(states.includes("down"), states.join(","));
  });
});

t("a silent gateway (no ticks, no frames for 2 × tickIntervalMs): the client closes with 4000 and reconnects", async () => {
  // A 1 s tick (a 2 s silence window): the fake, the host and this test share one process,
  // and on a loaded machine a stall of a few hundred ms dropped a healthy connection when the
  // tick was 250 ms (the load factor is read once per run, so it cannot follow the load).
  await connected({ tickIntervalMs: 1_000 }, async (h, gw) => {
    gw.pauseTicks(true);
    await waitUntil(() => gw.closes.some((c) => c.code === 4000), { label: "4000 close", timeoutMs: 10_000 });
    const close = gw.closes.find((c) => c.code === 4000)!;
    assert.is(close.reason, "tick timeout");
    gw.pauseTicks(false);
    await waitUntil(() => gw.opened >= 2, { label: "reconnect", timeoutMs: 10_000 });
    await waitForGatewayState(h, "connected");
    // With ticks flowing, the connection stays.
    const opened = gw.opened;
    await sleep(3_000); // three tick intervals in which a healthy connection must not be dropped
    assert.is(gw.opened, opened);
  });
});

t("a half-open connection (pings unanswered, nothing else sent): closed with 4000 'pong timeout' and reconnected", async () => {
  const gw = await FakeGateway.start({ token: TOKEN, answerPings: false });
  try {
    // A 1.5 s pong window: with 300 ms a stall of the shared process under load (CI, load 15)
    // dropped a connection whose peer was answering, the same lesson as the silent-gateway test.
    const timings = { ...FAST_GATEWAY_TIMINGS, pingIntervalMs: 250, pongTimeoutMs: 1_500 };
    await withTestHost(probedHost(gw.url, TOKEN, { gatewayTimings: timings }), async (h) => {
      await waitForGatewayState(h, "connected");
      await waitUntil(() => gw.closes.some((c) => c.code === 4000 && c.reason === "pong timeout"), { label: "pong timeout close", timeoutMs: 10_000 });
      gw.answerPings = true;
      await waitUntil(() => gw.opened >= 2, { label: "reconnect", timeoutMs: 10_000 });
      // A ping the fake received before it answered again may still time out one connection.
      await sleep(2_000);
      await waitForGatewayState(h, "connected");
      const opened = gw.opened;
      await sleep(3_000); // twelve ping intervals in which an answering peer must keep its connection
      assert.is(gw.opened, opened);
    });
  } finally {
    await gw.stop();
  }
});

t("a gateway that shuts down (shutdown event, 1012) is down at once and connected again after it returns", async () => {
  await connected({}, async (h, gw) => {
    await gw.restart();
    await waitUntil(async () => (await probeRecord(h)).events.some((e) => e.event === "shutdown"), { label: "shutdown event" });
    await waitForGatewayState(h, "connected");
    const states = (await probeRecord(h)).states;
    const down = states.find((s) => s.state === "down");
    assert.match(down?.lastError ?? "", "1012");
  });
});

t("ctx.gateway.events: an async stream in order; a slow reader keeps the newest bufferLimit events; it ends when its signal aborts", async () => {
  await connected({}, async (h, gw) => {
    const custom = (n: number) => gw.broadcast("custom", { n });
    const quick = h.json<StreamProbeAnswer>("/api/gateway-probe/stream", { method: "POST", body: { event: "custom", count: 3 } });
    await waitUntil(async () => (await probeRecord(h)).streamsOpened === 1, { label: "stream open" });
    for (const n of [1, 2, 3]) custom(n);
    const read = await quick;
    assert.equal(read.body.payloads, [{ n: 1 }, { n: 2 }, { n: 3 }]);
    assert.is(read.body.endedAfterAbort, true);
    const slow = h.json<StreamProbeAnswer>("/api/gateway-probe/stream", { method: "POST", body: { event: "custom", count: 2, bufferLimit: 2, startAfterMs: 500 } });
    await waitUntil(async () => (await probeRecord(h)).streamsOpened === 2, { label: "second stream open" });
    for (const n of [4, 5, 6, 7]) custom(n);
    assert.equal((await slow).body.payloads, [{ n: 6 }, { n: 7 }], "the two oldest were dropped");
  });
});

t("ready(timeoutMs): resolves once connected; while the gateway is down it fails after the timeout with 503 GATEWAY_UNAVAILABLE", async () => {
  await connected({}, async (h, gw) => {
    const ready = await h.json("/api/gateway-probe/ready", { method: "POST", body: { timeoutMs: 0 } });
    assert.is(ready.status, 200);
    await gw.stop();
    await waitForGatewayState(h, "down");
    const notNow = await h.json("/api/gateway-probe/ready", { method: "POST", body: { timeoutMs: 0 } });
    assert.is(notNow.status, 503);
    assert.is(notNow.body.error!.code, "GATEWAY_UNAVAILABLE");
    const waited = await h.json("/api/gateway-probe/ready", { method: "POST", body: { timeoutMs: 100 } });
    assert.is(waited.status, 503);
    // Waiting across the gateway's return resolves.
    const pending = h.json("/api/gateway-probe/ready", { method: "POST", body: { timeoutMs: 5_000 } });
    await gw.listen();
    assert.is((await pending).status, 200);
  });
});

t("a gateway that drops every connection at once: retries back off (capped, jittered), never a hot loop", async () => {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((r) => wss.once("listening", r));
  const opened: number[] = [];
  wss.on("connection", (ws) => {
    opened.push(Date.now());
    ws.close(1011, "internal error");
  });
  try {
    await withTestHost(probedHost(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`, TOKEN), async (h) => {
      await waitUntil(() => opened.length >= 8, { label: "eight attempts", timeoutMs: 5_000 });
      // Backoff 30 ms doubling to a 200 ms cap: a hot loop would have made hundreds by now.
      assert.ok(opened.length < 20, `${opened.length} attempts`);
      const gaps = opened.slice(4).map((at, i) => at - opened[i + 3]!);
      assert.ok(gaps.every((gap) => gap >= 100), `capped gaps stay near 200 ms: ${gaps.join(", ")}`);
      assert.is((await gatewayHealth(h)).state, "down");
    });
  } finally {
    await new Promise((r) => wss.close(r));
  }
});

t.run();
