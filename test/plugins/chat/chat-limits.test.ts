// The chat rate limit (5 running, 20 per minute) with the slot released in every path, the
// party's token cap, the gateway down. A client that leaves and the wait past turnTimeoutMs
// (the turn goes on in the background) are in chat-background.test.ts.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { FakeGateway } from "../../helpers/fake-gateway.ts";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { AGENTS, FAST, TOKEN, chatStream, gate, startRig, waitForGateway } from "./chat-helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("chat limits and faults");

t("50 concurrent chats: never more than 5 running at the gateway, the rest 429 with Retry-After; all slots released; the 21st start in a minute is refused", async () => {
  const rig = await startRig();
  try {
    let running = 0;
    let maxRunning = 0;
    const held = gate();
    rig.gw.onChat(async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await held.promise;
      running--;
      return "done";
    });
    const answers = Array.from({ length: 50 }, (_, i) => rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: `m${i}`, agentId: "main" } }));
    await waitUntil(() => running === 5, { label: "5 running" });
    const refused: Awaited<(typeof answers)[number]>[] = [];
    // The 45 others are answered while the 5 are still held.
    await waitUntil(async () => {
      const settled = await Promise.all(answers.map((a) => Promise.race([a, Promise.resolve(null)])));
      refused.splice(0, refused.length, ...settled.filter((s) => s !== null));
      return refused.length === 45;
    }, { label: "45 refused", timeoutMs: 5_000 });
    for (const r of refused) {
      assert.is(r!.status, 429);
      assert.is(r!.body.error?.code, "RATE_LIMITED");
      assert.ok(Number(r!.headers.get("retry-after")) >= 1);
    }
    held.open();
    const all = await Promise.all(answers);
    assert.is(all.filter((a) => a.status === 200).length, 5);
    assert.is(maxRunning, 5);
    assert.is(rig.gw.requests("chat.send").length, 5);
    // Every slot is free again: five more run at once (10 of the 20 per minute used).
    const more = await Promise.all(Array.from({ length: 5 }, (_, i) => rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: `again${i}`, agentId: "main" } })));
    assert.equal(more.map((m) => m.status), [200, 200, 200, 200, 200]);
    // A refused request (404) after taking a slot frees it too; it counts as a start.
    for (let i = 0; i < 10; i++) {
      const res = await rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "x", agentId: i % 2 ? "main" : "ghost" } });
      assert.is(res.status, i % 2 ? 200 : 404);
    }
    const over = await rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "21st", agentId: "main" } });
    assert.is(over.status, 429);
    assert.ok(Number(over.headers.get("retry-after")) >= 1);
  } finally {
    await rig.close();
  }
});

t("party output-token cap: the party stops between turns with truncated: true", async () => {
  const rig = await startRig({ host: { config: { pluginConfig: { chat: { partyMaxOutputTokens: 15 } } } } });
  try {
    rig.gw.onChat(() => ({ text: "a reply", usage: { input: 5, output: 10 } }));
    const res = await rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "talk", agentIds: ["main", "helper", "scout"], mode: "party", rounds: 3 } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.mode === "party");
    assert.is(res.body.truncated, true);
    assert.equal(res.body.replies.map((r) => r.agentId), ["main", "helper"]);
    assert.equal(res.body.usage, { inputTokens: 10, outputTokens: 20 });
    assert.is(rig.gw.requests("chat.send").length, 2);
    // Without usage from the gateway the cap still holds, on the reply's length.
    rig.gw.onChat(() => ({ text: "x".repeat(100), usage: undefined as never }));
    const estimated = await rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "talk", agentIds: ["main", "helper"], mode: "party", rounds: 3 } });
    assert.ok(estimated.body.mode === "party");
    assert.is(estimated.body.truncated, true);
    assert.is(estimated.body.replies.length, 1);
  } finally {
    await rig.close();
  }
});

t("gateway down: 503 GATEWAY_UNAVAILABLE for a known agent (404 for an unknown one), nothing stored; the slot is free for the next request", async () => {
  const gw = await FakeGateway.start({ token: TOKEN, agents: AGENTS });
  const url = gw.url;
  await gw.stop();
  await withTestHost({ config: { gatewayUrl: url, gatewayToken: TOKEN, gatewayTimings: FAST, pluginConfig: { chat: { rateLimit: { concurrent: 1 } } } } }, async (h) => {
    // aide and scribe are in the scaffolded organisation file; main is known to nobody while the gateway is down.
    for (let i = 0; i < 3; i++) {
      const res = await h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "anyone?", agentId: "aide" } });
      assert.is(res.status, 503);
      assert.is(res.body.error?.code, "GATEWAY_UNAVAILABLE");
    }
    const unknown = await h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "anyone?", agentId: "main" } });
    assert.is(unknown.status, 404);
    assert.is(unknown.body.error?.code, "AGENT_NOT_FOUND");
    const stream = await chatStream(h, { message: "anyone?", agentIds: ["aide", "scribe"], mode: "party" });
    assert.is(stream.status, 503);
    assert.is(stream.body.error?.code, "GATEWAY_UNAVAILABLE");
    assert.equal((await h.json<ApiBody<"getChatSessions">>("/api/chat/sessions")).body.sessions, []);
  });
});

t("gateway disabled (GATEWAY_URL=off): 503 GATEWAY_UNAVAILABLE", async () => {
  await withTestHost({}, async (h) => {
    await waitForGateway(h, "disabled");
    const res = await h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "hi", agentId: "aide" } });
    assert.is(res.status, 503);
    assert.is(res.body.error?.code, "GATEWAY_UNAVAILABLE");
  });
});

t("without the agents plugin (disabledPlugins), chat and council still run: no crew capability, so the gateway alone decides who answers", async () => {
  const rig = await startRig({ host: { config: { disabledPlugins: ["agents"] } } });
  try {
    assert.is((await rig.h.json<ApiBody<"getAgents">>("/api/agents")).status, 404, "the agents plugin is not loaded");
    const res = await rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "hello", agentId: "main" } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.mode === "single");
    assert.is(res.body.reply.agentId, "main");
    const council = await rig.h.json<ApiBody<"postCouncilSession">>("/api/council/session", { method: "POST", body: { topic: "Lunch?", agents: ["main", "helper"], rounds: 1 } });
    assert.is(council.status, 202, JSON.stringify(council.body));
  } finally {
    await rig.close();
  }
});

t.run();
