// The host's OpenClaw gateway client against the fake gateway, observed through the public
// surface: /api/health's `gateway`, and a probe plugin whose routes call ctx.gateway.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { FAST_GATEWAY_TIMINGS, gatewayProbe, probeCall, probedHost, probeRecord, waitForGatewayState } from "../helpers/gateway-probe.ts";
import { withTestHost, type StartOptions, type TestHost } from "../helpers/start-test-host.ts";
import { sleep, waitUntil } from "../helpers/wait.ts";
import { WebSocketServer } from "ws";
import { pino } from "pino";

const t = suite("gateway client");
const TOKEN = "fake-token-0123456789";
const hostOn = (gw: FakeGateway, config: StartOptions["config"] = {}) => probedHost(gw.url, TOKEN, config);
const health = async (h: TestHost) => (await h.json("/api/health")).body;

t("handshake: waits for the challenge, sends a closed connect with explicit scopes and the token; health says connected", async () => {
  const gw = await FakeGateway.start({ token: TOKEN, tickIntervalMs: 5_000 });
  try {
    await withTestHost(hostOn(gw), async (h) => {
      await waitForGatewayState(h, "connected");
      const connect = gw.requests("connect")[0];
      assert.equal(Object.keys(connect.params).sort(), ["auth", "caps", "client", "maxProtocol", "minProtocol", "role", "scopes"]);
      // The gateway sends its approval requests only to clients declaring this capability.
      assert.equal(connect.params.caps, ["approvals"]);
      assert.equal(connect.params.client.id, "gateway-client");
      assert.equal(connect.params.client.mode, "backend");
      assert.equal(connect.params.role, "operator");
      assert.equal(connect.params.scopes, ["operator.read", "operator.write", "operator.admin"]);
      assert.equal(connect.params.auth, { token: TOKEN });
      assert.is(connect.params.minProtocol, 4);
      // The challenge came first: connect is the first frame the fake received on that connection.
      assert.is(gw.received.find((r) => r.conn === 1)?.frame.method, "connect");
      const body = await health(h);
      assert.is(body.status, "ok");
      assert.is(body.gateway.url, gw.url);
      assert.ok(!Number.isNaN(Date.parse(body.gateway.since)));
      const seen = await probeRecord(h);
      assert.equal(seen.hello.scopes, ["operator.read", "operator.write", "operator.admin"]);
      assert.is(seen.hello.protocol, 4);
      // Re-subscribed to session changes on connect.
      await waitUntil(() => gw.requests("sessions.subscribe").length === 1, { label: "sessions.subscribe" });
      const agents = await probeCall<{ agents: { id: string }[] }>(h, "agents.list");
      assert.is(agents.status, 200);
      assert.is(agents.body.result.agents[0]?.id, "main");
      // The token is never in the health answer.
      assert.not.ok(JSON.stringify(body).includes(TOKEN));
    });
  } finally {
    await gw.stop();
  }
});

t("scopes: asks for exactly the configured scopes, and a method the grant does not cover is a 502 GATEWAY_ERROR with the gateway's code", async () => {
  const gw = await FakeGateway.start({ token: TOKEN });
  try {
    await withTestHost(hostOn(gw, { gatewayScopes: ["operator.read"] }), async (h) => {
      await waitForGatewayState(h, "connected");
      assert.equal(gw.requests("connect")[0].params.scopes, ["operator.read"]);
      const res = await probeCall(h, "cron.add", { name: "x" });
      assert.is(res.status, 502);
      assert.is(res.body.error!.code, "GATEWAY_ERROR");
      assert.is(res.body.error!.details.code, "FORBIDDEN");
      assert.is(res.body.error!.details.details?.code, "MISSING_SCOPE");
      assert.match(res.body.error!.details.message, "missing scope: operator.admin");
      // A failed call leaves the connection up.
      assert.is((await probeCall(h, "health")).status, 200);
    });
  } finally {
    await gw.stop();
  }
});

t("fewer scopes granted than requested (a remote gateway without a device): connected, with lastError saying so", async () => {
  const gw = await FakeGateway.start({ token: TOKEN, requireDevice: true });
  try {
    await withTestHost(hostOn(gw, { gatewayDeviceIdentity: "off" }), async (h) => {
      await waitForGatewayState(h, "connected");
      const body = await health(h);
      assert.match(body.gateway.lastError ?? "", "granted scopes []");
    });
  } finally {
    await gw.stop();
  }
});

t("device identity: signs the challenge (v3), the fake verifies it and grants the scopes; the key is stored 0600 under MUSTER_HOME", async () => {
  const gw = await FakeGateway.start({ token: TOKEN, requireDevice: true });
  try {
    await withTestHost(hostOn(gw, { gatewayDeviceIdentity: "on" }), async (h) => {
      await waitForGatewayState(h, "connected");
      const connect = gw.requests("connect")[0];
      assert.ok(connect.params.device, "device block sent");
      const conn = await gw.waitForConnection();
      assert.is(conn.deviceId, connect.params.device.id);
      assert.equal(conn.scopes, ["operator.read", "operator.write", "operator.admin"]);
      assert.is((await health(h)).gateway.lastError, undefined);
      const { statSync } = await import("node:fs");
      const { join } = await import("node:path");
      assert.is(statSync(join(h.home, "gateway-device.json")).mode & 0o777, 0o600);
    });
  } finally {
    await gw.stop();
  }
});

t("an unpaired device: unauthorized with the approve command in lastError; connected soon after the approval", async () => {
  const gw = await FakeGateway.start({ token: TOKEN, requireDevice: true, requirePairing: true });
  try {
    await withTestHost(hostOn(gw, { gatewayDeviceIdentity: "on" }), async (h) => {
      await waitForGatewayState(h, "unauthorized");
      const [deviceId] = [...gw.pendingDevices];
      assert.ok(deviceId, "the device asked to pair");
      assert.match((await health(h)).gateway.lastError ?? "", `openclaw devices approve ${deviceId}`);
      gw.approveDevice(deviceId!);
      await waitForGatewayState(h, "connected");
    });
  } finally {
    await gw.stop();
  }
});

t("state connecting → connected → down → connected across a gateway restart; consumers see each change", async () => {
  const gw = await FakeGateway.start({ token: TOKEN });
  try {
    await withTestHost(hostOn(gw), async (h) => {
      await waitForGatewayState(h, "connected");
      await gw.stop();
      await waitForGatewayState(h, "down");
      assert.match((await health(h)).gateway.lastError ?? "", /restarting|refused/);
      assert.is((await health(h)).status, "ok", "Muster stays ok without the gateway");
      // While down, calls fail fast with 503 instead of queueing.
      const refused = await probeCall(h, "health");
      assert.is(refused.status, 503);
      assert.is(refused.body.error!.code, "GATEWAY_UNAVAILABLE");
      await gw.listen();
      await waitForGatewayState(h, "connected");
      const states = (await probeRecord(h)).states.map((s) => s.state);
      assert.equal(states.slice(0, 4), ["connecting", "connected", "down", "connected"]);
      // Subscribed again on the new connection.
      await waitUntil(() => gw.requests("sessions.subscribe").length === 2, { label: "second sessions.subscribe" });
    });
  } finally {
    await gw.stop();
  }
});

t("a gateway that announced its restart (shutdown, 1012) is retried at the short restart interval, not the growing backoff", async () => {
  const gw = await FakeGateway.start({ token: TOKEN });
  // Backoff alone would retry at ~1 s, ~3 s, ~7 s: after 1.2 s down the next try comes 1.2 s or more late.
  const timings = { ...FAST_GATEWAY_TIMINGS, backoffInitialMs: 1_000, backoffMaxMs: 30_000, restartRetryMs: 100 };
  try {
    await withTestHost(hostOn(gw, { gatewayTimings: timings }), async (h) => {
      await waitForGatewayState(h, "connected");
      await gw.stop();
      await waitForGatewayState(h, "down");
      await sleep(1_200); // the gateway stays away for a while, as a real one does while restarting
      await gw.listen();
      await waitForGatewayState(h, "connected", 800);
    });
  } finally {
    await gw.stop();
  }
});

t("a gateway that was unreachable is connected as soon as it is ready again, not when the backoff delay ends", async () => {
  const gw = await FakeGateway.start({ token: TOKEN });
  // A backoff this long would keep Muster away for the whole test: only the readiness watch can connect it.
  const timings = { ...FAST_GATEWAY_TIMINGS, backoffInitialMs: 120_000, backoffMaxMs: 120_000, restartRetryMs: 120_000, readinessProbeMs: 50 };
  try {
    await withTestHost(hostOn(gw, { gatewayTimings: timings }), async (h) => {
      await waitForGatewayState(h, "connected");
      await gw.stop({ graceful: false }); // gone without a word: no restart window, only the long backoff
      await waitForGatewayState(h, "down");
      const attempts = gw.requests("connect").length;
      await sleep(300); // down for a while: the watch looks several times and does not dial
      assert.is(gw.requests("connect").length, attempts, "no handshake is attempted while nothing listens");
      await gw.listen();
      await waitForGatewayState(h, "connected", 20_000);
    });
  } finally {
    await gw.stop();
  }
});

t("a gateway that refuses the token is not polled for readiness: it is retried at the slow interval only", async () => {
  const gw = await FakeGateway.start({ token: TOKEN });
  const timings = { ...FAST_GATEWAY_TIMINGS, readinessProbeMs: 20 };
  try {
    await withTestHost(probedHost(gw.url, "a-wrong-token-0123456789", { gatewayTimings: timings }), async (h) => {
      await waitForGatewayState(h, "unauthorized");
      const connects = gw.requests("connect").length;
      await sleep(500);
      assert.is(gw.requests("connect").length, connects, "no new handshake within the slow interval");
    });
  } finally {
    await gw.stop();
  }
});

t("the token never reaches the log, at trace level, through a connect, a refusal and calls", async () => {
  const lines: string[] = [];
  const logger = pino({ level: "trace" }, { write: (line: string) => void lines.push(line) });
  for (const token of [TOKEN, "a-wrong-token-0123456789"]) {
    const gw = await FakeGateway.start({ token: TOKEN });
    try {
      await withTestHost({ ...probedHost(gw.url, token), logger }, async (h) => {
        await waitForGatewayState(h, token === TOKEN ? "connected" : "unauthorized");
        await probeCall<{ agents: { id: string }[] }>(h, "agents.list");
      });
    } finally {
      await gw.stop();
    }
  }
  assert.ok(lines.some((l) => l.includes("gateway connected")) && lines.some((l) => l.includes("gateway unauthorized")), "both outcomes were logged");
  assert.not.ok(lines.some((l) => l.includes(TOKEN) || l.includes("a-wrong-token-0123456789")));
});

t("GATEWAY_URL=off: health says disabled, status ok, calls are 503 GATEWAY_UNAVAILABLE, nothing is dialled", async () => {
  await withTestHost({ extraPlugins: [gatewayProbe], config: { gatewayUrl: "off" } }, async (h) => {
    const body = await health(h);
    assert.is(body.status, "ok");
    assert.equal({ state: body.gateway.state, url: body.gateway.url }, { state: "disabled", url: null });
    const res = await probeCall(h, "health");
    assert.is(res.status, 503);
    assert.is(res.body.error!.code, "GATEWAY_UNAVAILABLE");
    assert.match(res.body.error!.message, "GATEWAY_URL is off");
  });
});

t("gateway down at start-up: the host starts anyway, health says down with a connection-refused lastError", async () => {
  const gw = await FakeGateway.start({ token: TOKEN });
  const url = gw.url;
  await gw.stop();
  await withTestHost(probedHost(url, TOKEN), async (h) => {
    await waitForGatewayState(h, "down");
    assert.match((await health(h)).gateway.lastError ?? "", "connection refused");
  });
});

t("wrong token: state unauthorized, calls 503 GATEWAY_UNAUTHORIZED, and no hot reconnect loop", async () => {
  const gw = await FakeGateway.start({ token: "the-right-token" });
  try {
    await withTestHost(hostOn(gw), async (h) => {
      await waitForGatewayState(h, "unauthorized");
      const body = await health(h);
      assert.match(body.gateway.lastError ?? "", "AUTH_TOKEN_MISMATCH");
      assert.not.ok(JSON.stringify(body).includes(TOKEN));
      const res = await probeCall(h, "health");
      assert.is(res.status, 503);
      assert.is(res.body.error!.code, "GATEWAY_UNAUTHORIZED");
      const before = gw.connectAttempts;
      // A window in which a hot loop (backoff 30 ms here) would make many attempts.
      await sleep(600);
      assert.is(gw.connectAttempts, before, "no new connect attempt within the unauthorized retry interval");
    });
  } finally {
    await gw.stop();
  }
});

t("a 1008 close naming the token mismatch (no res) also means unauthorized, retried slowly", async () => {
  // A bare peer that closes 1008 with the reason only, as the gateway may after a bad token.
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((r) => wss.once("listening", r));
  let connects = 0;
  wss.on("connection", (ws) => {
    ws.send(JSON.stringify({ type: "event", event: "connect.challenge", payload: { nonce: "n", ts: Date.now() } }));
    ws.on("message", () => {
      connects += 1;
      ws.close(1008, "unauthorized: gateway token mismatch (provide gateway auth token)");
    });
  });
  const port = (wss.address() as { port: number }).port;
  try {
    await withTestHost(probedHost(`ws://127.0.0.1:${port}`, TOKEN), async (h) => {
      await waitForGatewayState(h, "unauthorized");
      await sleep(300); // a window in which a hot loop would show
      assert.is(connects, 1);
    });
  } finally {
    await new Promise((r) => wss.close(r));
  }
});

t("UNAVAILABLE while the gateway starts: state connecting, retried after retryAfterMs until connected", async () => {
  const gw = await FakeGateway.start({ token: TOKEN, unavailableConnects: 3, retryAfterMs: 40 });
  try {
    await withTestHost(hostOn(gw), async (h) => {
      await waitForGatewayState(h, "connected");
      assert.is(gw.connectAttempts, 4);
      const states = (await probeRecord(h)).states.map((s) => s.state);
      assert.not.ok(states.includes("down"), `never down while starting: ${states.join(",")}`);
    });
  } finally {
    await gw.stop();
  }
});

t("protocol mismatch: state down with a clear lastError, retried only slowly", async () => {
  const gw = await FakeGateway.start({ token: TOKEN, protocol: 5 });
  try {
    await withTestHost(hostOn(gw), async (h) => {
      await waitForGatewayState(h, "down");
      assert.match((await health(h)).gateway.lastError ?? "", "protocol mismatch: the gateway speaks protocol 5, Muster speaks 4");
      await sleep(300); // a window in which a hot loop would show
      assert.is(gw.connectAttempts, 1);
    });
  } finally {
    await gw.stop();
  }
});

t("no connect.challenge: the attempt times out and is retried with backoff", async () => {
  const gw = await FakeGateway.start({ token: TOKEN, sendChallenge: false });
  try {
    await withTestHost(hostOn(gw, { gatewayTimings: { ...FAST_GATEWAY_TIMINGS, challengeTimeoutMs: 100 } }), async (h) => {
      await waitForGatewayState(h, "down");
      assert.match((await health(h)).gateway.lastError ?? "", "no connect.challenge within 100 ms");
      await waitUntil(() => gw.opened >= 2, { label: "a second attempt" });
      assert.is(gw.connectAttempts, 0);
    });
  } finally {
    await gw.stop();
  }
});

t.run();
