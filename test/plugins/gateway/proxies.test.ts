// GET /api/gateway/sessions and /api/gateway/crons against the fake gateway: every page
// read, rows mapped, and the gateway's failures answered with the host's codes.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { FakeGateway } from "../../helpers/fake-gateway.ts";
import { FAST, TOKEN, startRig, waitForGateway } from "../chat/chat-helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("gateway proxies");

t("sessions: every page of sessions.list, mapped to { key, agentId, lastActivity, model }", async () => {
  const rig = await startRig({ host: { config: { pluginConfig: { gateway: { pageSize: 100 } } } } });
  try {
    const rows = Array.from({ length: 250 }, (_, i) => ({ key: `agent:main:s${i}`, agentId: "main", model: "fake-model", modelProvider: "fake", updatedAt: 1_795_266_733_422 - i, status: "done" }));
    rig.gw.setSessions([
      ...rows,
      // No agentId: read from the key. No updatedAt: the other activity fields. No model: null.
      { key: "agent:helper:custom", lastInteractionAt: 1_700_000_000_000 } as never,
      { key: "", agentId: "broken" } as never,
    ]);
    const res = await rig.h.json<ApiBody<"getGatewaySessions">>("/api/gateway/sessions");
    assert.is(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    assert.is(res.body.ok, true);
    assert.is(res.body.truncated, false);
    assert.is(res.body.sessions.length, 251);
    assert.equal(res.body.sessions[0], { key: "agent:main:s0", agentId: "main", lastActivity: 1_795_266_733_422, model: "fake-model" });
    assert.equal(res.body.sessions.find((s) => s.key === "agent:helper:custom"), { key: "agent:helper:custom", agentId: "helper", lastActivity: 1_700_000_000_000, model: null });
    // Other plugins may read sessions.list too; the last three calls are this request's.
    const calls = rig.gw.requests("sessions.list").map((r) => [r.params.offset, r.params.limit]).slice(-3);
    assert.equal(calls, [[0, 100], [100, 100], [200, 100]]);
  } finally {
    await rig.close();
  }
});

t("sessions: a list longer than the cap is cut there with truncated: true; a gateway that does not move forward ends the walk", async () => {
  const rig = await startRig({ host: { config: { pluginConfig: { gateway: { pageSize: 10, maxRows: 25 } } } } });
  try {
    rig.gw.setSessions(Array.from({ length: 40 }, (_, i) => ({ key: `agent:main:s${i}`, agentId: "main", updatedAt: 1000 - i })));
    const res = await rig.h.json<ApiBody<"getGatewaySessions">>("/api/gateway/sessions");
    assert.is(res.body.sessions.length, 25);
    assert.is(res.body.truncated, true);
    // hasMore forever with the same offset: one page, no loop.
    rig.gw.override("sessions.list", () => ({ sessions: [{ key: "agent:main:x", agentId: "main", updatedAt: 1 }], hasMore: true, nextOffset: 0 }));
    const stuck = await rig.h.json<ApiBody<"getGatewaySessions">>("/api/gateway/sessions");
    assert.is(stuck.status, 200);
    assert.is(stuck.body.sessions.length, 1);
    // A payload without a sessions array reads as empty, never a 500.
    rig.gw.override("sessions.list", () => ({ nothing: true }));
    const empty = await rig.h.json<ApiBody<"getGatewaySessions">>("/api/gateway/sessions");
    assert.equal([empty.status, empty.body.sessions], [200, []]);
  } finally {
    await rig.close();
  }
});

t("crons: the gateway's jobs as returned, with id, name, agentId, cron, timezone, enabled, nextRun, lastRun added", async () => {
  const rig = await startRig();
  try {
    const jobs = [
      {
        id: "241520be",
        name: "heartbeat-main",
        agentId: "main",
        enabled: true,
        schedule: { kind: "every", everyMs: 1_800_000 },
        state: { nextRunAtMs: 1_795_268_267_988, lastRunAtMs: 1_795_266_467_988 },
        payload: { kind: "heartbeat" },
      },
      { id: "f6494b4c", displayName: "Memory Dreaming Promotion", effectiveAgentId: "helper", enabled: false, schedule: { kind: "cron", expr: "0 3 * * *", tz: "Europe/Paris" }, nextRunAtMs: 1_795_316_400_000 },
      { name: "no id: dropped" },
    ];
    rig.gw.override("cron.list", (params) => (params.offset ? { jobs: [], hasMore: false } : { jobs, total: 3, hasMore: false, nextOffset: null }));
    const res = await rig.h.json<ApiBody<"getGatewayCrons">>("/api/gateway/crons");
    assert.is(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    assert.is(res.body.jobs.length, 2);
    const [heartbeat, dreaming] = res.body.jobs;
    assert.ok(heartbeat && dreaming, "both jobs");
    assert.equal(
      { id: heartbeat.id, name: heartbeat.name, agentId: heartbeat.agentId, cron: heartbeat.cron, timezone: heartbeat.timezone, enabled: heartbeat.enabled, nextRun: heartbeat.nextRun, lastRun: heartbeat.lastRun },
      { id: "241520be", name: "heartbeat-main", agentId: "main", cron: null, timezone: null, enabled: true, nextRun: new Date(1_795_268_267_988).toISOString(), lastRun: new Date(1_795_266_467_988).toISOString() },
    );
    // The gateway's own fields stay as it sent them.
    assert.equal(heartbeat.schedule, { kind: "every", everyMs: 1_800_000 });
    assert.equal(heartbeat.payload, { kind: "heartbeat" });
    assert.equal(
      [dreaming.name, dreaming.agentId, dreaming.cron, dreaming.timezone, dreaming.enabled, dreaming.nextRun, dreaming.lastRun],
      ["Memory Dreaming Promotion", "helper", "0 3 * * *", "Europe/Paris", false, new Date(1_795_316_400_000).toISOString(), null],
    );
    assert.is(rig.gw.requests("cron.list")[0].params.includeDisabled, true);
  } finally {
    await rig.close();
  }
});

t("gateway errors: ok:false → 502 GATEWAY_ERROR with its code; no answer → 504 GATEWAY_TIMEOUT; down → 503 GATEWAY_UNAVAILABLE", async () => {
  const rig = await startRig({ host: { config: { pluginConfig: { gateway: { callTimeoutMs: 300 } } } } });
  try {
    rig.gw.failWith("sessions.list", { code: "FORBIDDEN", message: "missing scope: operator.read", details: { code: "MISSING_SCOPE", missingScope: "operator.read" } });
    const refused = await rig.h.json<ApiBody<"getGatewaySessions">>("/api/gateway/sessions");
    assert.is(refused.status, 502);
    assert.is(refused.body.error?.code, "GATEWAY_ERROR");
    assert.ok(JSON.stringify(refused.body.error?.details).includes("FORBIDDEN"));
    rig.gw.neverAnswer("cron.list");
    const slow = await rig.h.json<ApiBody<"getGatewayCrons">>("/api/gateway/crons");
    assert.is(slow.status, 504);
    assert.is(slow.body.error?.code, "GATEWAY_TIMEOUT");
    await rig.gw.stop();
    await waitForGateway(rig.h, "connecting").catch(() => waitForGateway(rig.h, "down"));
    for (const path of ["/api/gateway/sessions", "/api/gateway/crons"]) {
      const down = await rig.h.json(path);
      assert.is(down.status, 503, path);
      assert.is(down.body.error?.code, "GATEWAY_UNAVAILABLE");
    }
  } finally {
    await rig.close();
  }
});

t("a refused token: 503 GATEWAY_UNAUTHORIZED", async () => {
  const gw = await FakeGateway.start({ token: TOKEN });
  try {
    await withTestHost({ config: { gatewayUrl: gw.url, gatewayToken: "wrong-token-0123456789", gatewayTimings: FAST } }, async (h) => {
      await waitForGateway(h, "unauthorized");
      const res = await h.json<ApiBody<"getGatewaySessions">>("/api/gateway/sessions");
      assert.is(res.status, 503);
      assert.is(res.body.error?.code, "GATEWAY_UNAUTHORIZED");
    });
  } finally {
    await gw.stop();
  }
});

t.run();
