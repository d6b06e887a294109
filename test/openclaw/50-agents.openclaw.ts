// Agent health and the agent factory against the real gateway: after a chat through Muster
// the agent's health reflects its real session (active, a lastActivityMs); a factory-created
// agent reaches the gateway's agents.list only once its agents.register approval is approved.
// (Every agent offline while the gateway is down is asserted in 90-restart.)
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { connectBare } from "../../scripts/openclaw-peer/bare-client.ts";
import { waitUntil } from "../helpers/wait.ts";
import { boundedTest, CHAT_TEST_MS } from "./support/bounded.ts";
import { withMuster } from "./support/muster.ts";
import { peer } from "./support/peer.ts";
import { decideApproval } from "@muster/plugin/testing";
import type { ApiBody } from "@muster/plugin/testing";

const test = suite("agents");

boundedTest(test, "health: after a chat through Muster, main is active with the session's lastActivityMs", CHAT_TEST_MS, async () => {
  const marker = `MARK-health-${randomUUID().slice(0, 8)}`;
  await withMuster(async (h) => {
    const startedAt = Date.now();
    const chat = await h.json("/api/chat", { method: "POST", body: { message: `Please repeat ${marker}`, agentId: "main" } });
    assert.is(chat.status, 200, JSON.stringify(chat.body));
    const main = await waitUntil(
      async () => {
        const body = (await h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).body;
        const entry = body.agents?.find((a) => a.id === "main");
        return entry && entry.lastActivityMs !== null && entry.lastActivityMs >= startedAt - 1_000 ? entry : undefined;
      },
      { timeoutMs: 20_000, label: "main's health shows the chat's session" },
    );
    assert.is(main.state, "active");
    assert.ok(main.sessionCount >= 1);
    assert.is(main.idleMinutes, 0);
    const body = (await h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).body;
    assert.is(body.gateway.state, "connected");
    assert.ok(body.agents.some((a) => a.id === "helper"), "the gateway's other agent is listed");
  });
});

boundedTest(test, "factory: the agent is known to the gateway after its approval, not before", 2 * CHAT_TEST_MS, async () => {
  const { gateway } = peer();
  const agentId = `scout-${randomUUID().slice(0, 8)}`;
  const bare = await connectBare(gateway.url, gateway.token);
  const gatewayIds = async () => ((await bare.call("agents.list", {})).agents as { id: string }[]).map((a) => a.id);
  try {
    await withMuster(async (h) => {
      mkdirSync(join(h.workspace, "personas/execution"), { recursive: true });
      writeFileSync(join(h.workspace, "personas/execution/developer.md"), "# Developer\nYou write and test code.");
      const created = await h.json("/api/agents/factory", { method: "POST", body: { templateId: "developer", name: "Scout", agentId, model: "fake/fake-model" } });
      assert.is(created.status, 201, JSON.stringify(created.body));
      assert.not.ok((await gatewayIds()).includes(agentId), "not registered before the approval");
      const approved = await decideApproval(h, created.body.approval.id, "approved");
      assert.is(approved.status, 200, JSON.stringify(approved.body));
      assert.is(approved.body.approval.executionStatus, "succeeded", approved.body.approval.executionError ?? "");
      await waitUntil(async () => (await gatewayIds()).includes(agentId), { timeoutMs: 20_000, label: `${agentId} in the gateway's agents.list` });
    });
  } finally {
    // Leave the shared gateway as it was for the files after this one.
    await bare.call("agents.delete", { agentId, deleteFiles: true }).catch(() => {});
    await bare.close();
    // Read from the deletion's answer on: the creation's reload may still be logged before it.
    const output = gateway.layout.outputFile;
    const before = statSync(output).size;
    // The gateway applies the deletion by a config hot reload about a second later, and a run
    // it prepares meanwhile fails inside it ("prepared model runtime plugin generation was
    // superseded") without a reply: 50-dispatch's run was lost that way once. So the next file
    // starts after the reload. A gateway that logs it differently only makes this wait longer.
    const reloaded = () => readFileSync(output).subarray(before).toString().includes(`hot reload applied (agents.entries.${agentId}`);
    await waitUntil(() => reloaded() || null, { timeoutMs: 15_000, label: `the gateway's config reload after deleting ${agentId}` }).catch(() => undefined);
  }
});

test.run();
