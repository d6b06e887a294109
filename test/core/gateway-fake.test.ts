// The fake gateway behaves as the reference observed the real one (the chat, council and
// crew suites build on it): cron events before their res, chat abort, sessions and
// history, multi-agent rules. Driven through the host's client and the probe plugin.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { probeCall, probedHost, probeRecord, waitForGatewayState } from "../helpers/gateway-probe.ts";
import { withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";

const t = suite("fake gateway");
const TOKEN = "fake-token-0123456789";

async function connected(options: Parameters<typeof FakeGateway.start>[0], fn: (h: TestHost, gw: FakeGateway) => Promise<void>) {
  const gw = await FakeGateway.start({ token: TOKEN, ...options });
  try {
    await withTestHost(probedHost(gw.url, TOKEN), async (h) => {
      await waitForGatewayState(h, "connected");
      await fn(h, gw);
    });
  } finally {
    await gw.stop();
  }
}

const events = async (h: TestHost, name: string) => (await probeRecord(h)).events.filter((e) => e.event === name).map((e) => e.payload);

t("cron: add/update/remove emit their event before the res; run answers first, then started and finished; a missing job is CRON_JOB_NOT_FOUND", async () => {
  await connected({}, async (h) => {
    const added = await probeCall<{ id: string }>(h, "cron.add", { name: "job", schedule: { kind: "cron", expr: "*/5 * * * *", tz: "Europe/Berlin" }, sessionTarget: "isolated", wakeMode: "now", payload: { kind: "agentTurn", message: "hi" } });
    assert.is(added.status, 200);
    const id = added.body.result.id;
    // The event came before the res on the same socket, so it is recorded by now.
    assert.equal((await events(h, "cron")).map((e) => [e.jobId, e.action]), [[id, "added"]]);
    await probeCall(h, "cron.update", { id, patch: { enabled: false } });
    assert.is((await events(h, "cron")).at(-1).action, "updated");
    assert.is((await probeCall<{ jobs: { id: string }[] }>(h, "cron.list", {})).body.result.jobs.length, 0, "disabled jobs are left out by default");
    assert.is((await probeCall<{ jobs: { id: string }[] }>(h, "cron.list", { includeDisabled: true })).body.result.jobs[0]?.id, id);
    const run = await probeCall<{ enqueued: boolean; runId: string }>(h, "cron.run", { id, mode: "force" });
    assert.is(run.body.result.enqueued, true);
    await waitUntil(async () => (await events(h, "cron")).some((e) => e.action === "finished"), { label: "finished" });
    assert.equal((await events(h, "cron")).slice(-2).map((e) => e.action), ["started", "finished"]);
    assert.is((await probeCall<{ entries: { runId: string }[] }>(h, "cron.runs", { id })).body.result.entries[0]?.runId, run.body.result.runId);
    assert.equal((await probeCall(h, "cron.remove", { id })).body.result, { ok: true, removed: true });
    const again = await probeCall(h, "cron.remove", { id });
    assert.is(again.status, 502);
    assert.is(again.body.error!.details.details?.code, "CRON_JOB_NOT_FOUND");
    const invalid = await probeCall(h, "cron.add", { name: "x" });
    assert.match(invalid.body.error!.details.message, "must have required property 'schedule'");
  });
});

t("chat.abort mid-stream: aborted with the text so far; sessions and history follow the chat; sessions.changed for the subscribed client", async () => {
  await connected({}, async (h, gw) => {
    gw.onChat(() => ({ deltas: ["one ", "two ", "three ", "four "], delayMs: 150 }));
    await probeCall(h, "chat.send", { sessionKey: "agent:main:main", message: "count", idempotencyKey: "run-a" });
    await waitUntil(async () => (await events(h, "chat")).some((e) => e.state === "delta"), { label: "first delta" });
    const aborted = await probeCall(h, "chat.abort", { sessionKey: "agent:main:main", runId: "run-a" });
    assert.equal(aborted.body.result, { ok: true, aborted: true, runIds: ["run-a"] });
    await waitUntil(async () => (await events(h, "chat")).some((e) => e.state === "aborted"), { label: "aborted" });
    const final = (await events(h, "chat")).find((e) => e.state === "aborted");
    assert.is(final.stopReason, "rpc");
    assert.ok(final.message.content[0].text.startsWith("one "));
    assert.not.ok((await events(h, "chat")).some((e) => e.state === "final"));

    gw.onChat((agentId) => `hello from ${agentId}`);
    await probeCall(h, "chat.send", { sessionKey: "agent:main:side", message: "hi", idempotencyKey: "run-b" });
    await waitUntil(async () => (await events(h, "chat")).some((e) => e.runId === "run-b" && e.state === "final"), { label: "run-b final" });
    const history = (await probeCall<{ messages: [{ role: string; content: string }, { role: string; content: { text: string }[] }] }>(h, "chat.history", { sessionKey: "agent:main:side" })).body.result.messages;
    assert.equal(history.map((m) => m.role), ["user", "assistant"]);
    assert.is(history[0].content, "hi");
    assert.is(history[1].content[0]?.text, "hello from main");
    gw.setSessions([{ key: "agent:main:old", agentId: "main", model: "fake-model", updatedAt: 1 }]);
    const sessions = (await probeCall<{ sessions: { key: string }[] }>(h, "sessions.list", {})).body.result.sessions.map((s) => s.key);
    assert.equal(sessions.sort(), ["agent:main:main", "agent:main:old", "agent:main:side"]);
    assert.ok((await events(h, "sessions.changed")).some((e) => e.sessionKey === "agent:main:side"));
  });
});

t("several agents: a session key or agentId must name one; an unknown agent is refused as the gateway does", async () => {
  await connected({ agents: [{ id: "main" }, { id: "helper" }] }, async (h, gw) => {
    const listed = await probeCall<{ agents: { id: string }[] }>(h, "agents.list");
    assert.equal(listed.body.result.agents.map((a) => a.id), ["main", "helper"]);
    const helper = await probeCall(h, "chat.send", { sessionKey: "agent:helper:main", message: "hi", idempotencyKey: "h-1" });
    assert.is(helper.status, 200);
    const unknown = await probeCall(h, "chat.send", { sessionKey: "agent:nope:main", message: "hi", idempotencyKey: "n-1" });
    assert.is(unknown.status, 502);
    assert.match(unknown.body.error!.details.message, 'Agent "nope" no longer exists');
    const ambiguous = await probeCall(h, "agent", { message: "hi", idempotencyKey: "a-1" });
    assert.is(ambiguous.status, 502);
    gw.setAgents([{ id: "main" }]);
    assert.is((await probeCall<{ agents: unknown[] }>(h, "agents.list")).body.result.agents.length, 1);
  });
});

t.run();
