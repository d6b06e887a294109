// A chat turn outlives the request that started it: a client that leaves, or a wait past
// turnTimeoutMs, leaves the turn running (its agent may wait for a human's exec approval);
// the reply is stored in the session and published as chat.turn.finished. Turns are listed,
// cancelled, bounded by turnMaxMs, and aborted cleanly at shutdown.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { type ApiBody, approve, waitForApproval } from "@muster/plugin/testing";
import { openSse, type SseConnection } from "../../helpers/sse-client.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { chatStream, gate, startRig, type Rig } from "./chat-helpers.ts";

const t = suite("chat: turns that outlive their request");

/**
 * The agent asks for an exec approval in its run and replies once the gateway resolves it.
 * Aborting the run cancels the request, as the real gateway does.
 */
function agentNeedingApproval(rig: Rig, command = "touch approved.txt"): void {
  rig.gw.onChat(async (agentId, _message, sessionKey, { signal }) => {
    const approval = rig.gw.raiseApproval("exec", { command, agentId, sessionKey, cwd: `/work/agents/${agentId}`, host: "gateway", ask: "always" });
    const decision = await new Promise<string>((resolve) => {
      const poll = setInterval(() => {
        const resolution = rig.gw.approvalResolutions.find((r) => r.id === approval.id);
        if (resolution) {
          clearInterval(poll);
          resolve(resolution.decision);
        }
      }, 10);
      signal.addEventListener("abort", () => {
        clearInterval(poll);
        rig.gw.resolveApproval(approval.id, "deny", "run aborted");
        resolve("aborted");
      }, { once: true });
    });
    return decision === "allow-once" ? `Ran ${command}` : `Did not run ${command}: ${decision}`;
  });
}

/** An agent whose reply waits until the test opens the gate (or its run is aborted). */
function heldAgent(rig: Rig) {
  const held = gate<string>();
  rig.gw.onChat((_agent, _message, _key, { signal }) => Promise.race([held.promise, new Promise<string>((resolve) => signal.addEventListener("abort", () => resolve("cut")))]));
  return held;
}

// `payload: any`: the SSE event payload as parsed JSON, matched field by field for events of several plugins.
const turnEvent = (sse: SseConnection, name: string, match: (payload: any) => boolean, label = name) =>
  sse.next((f) => f.data?.type === "event" && f.data.name === name && match(f.data.payload), 10_000, label).then((f) => f.data.payload);
/** The host noticed the client left: its turn went on in the background (or, as before, its run was aborted). */
const serverSawTheClientLeave = (rig: Rig) =>
  waitUntil(async () => rig.gw.requests("chat.abort").length > 0 || (await runningTurns(rig))?.[0]?.attached === false, { label: "the host noticed the client left" });
const messages = async (rig: Rig, sessionId: string) => (await rig.h.json<ApiBody<"getChatSessionsById">>(`/api/chat/sessions/${sessionId}`)).body.messages;
const runningTurns = async (rig: Rig, query = "") => (await rig.h.json<ApiBody<"getChatTurns">>(`/api/chat/turns${query}`)).body.turns;

t("a stream client that leaves while the agent waits for an exec approval: the turn goes on; approved in Muster, the reply is stored and published", async () => {
  const rig = await startRig();
  const sse = await openSse(rig.h.url);
  try {
    agentNeedingApproval(rig);
    const controller = new AbortController();
    const answer = await chatStream(rig.h, { message: "Create the file", agentId: "main" }, controller.signal);
    const { sessionId } = await answer.next((f) => f.type === "start");
    const pending = await waitForApproval(rig.h, (a) => a.command === "openclaw.exec" && a.status === "pending", { label: "the exec approval in the inbox" });
    controller.abort();
    await answer.ended;
    // The client is gone: nothing was aborted and the gateway still waits for the human.
    const gatewayId = (pending.payload as { gatewayId: string }).gatewayId;
    await serverSawTheClientLeave(rig);
    assert.is(rig.gw.requests("chat.abort").length, 0, "no chat.abort");
    await turnEvent(sse, "chat.turn.updated", (p) => p.turn.sessionId === sessionId && p.turn.attached === false, "the turn went on in the background");
    assert.ok(rig.gw.approvals.has(gatewayId), "the exec approval is still pending in the gateway");

    await approve(rig.h, pending.id);
    const finished = await turnEvent(sse, "chat.turn.finished", (p) => p.turn.sessionId === sessionId);
    assert.is(finished.outcome, "completed");
    assert.is(finished.error, null);
    assert.equal(finished.replies.map((m: { role: string; agentId: string; text: string }) => [m.role, m.agentId, m.text]), [["agent", "main", "Ran touch approved.txt"]]);
    const stored = await messages(rig, sessionId);
    assert.equal(stored.map((m) => [m.role, m.text]), [["user", "Create the file"], ["agent", "Ran touch approved.txt"]]);
    assert.is(stored[1]?.id, finished.replies[0].id);
    assert.equal(await runningTurns(rig), []);
  } finally {
    sse.close();
    await rig.close();
  }
});

t("GET /api/chat/turns shows the approval a turn waits on, and clears it once decided in the gateway", async () => {
  const rig = await startRig();
  const sse = await openSse(rig.h.url);
  try {
    agentNeedingApproval(rig, "rm -rf build");
    const started = await rig.h.json<ApiBody<"postChatTurns">>("/api/chat/turns", { method: "POST", body: { message: "Clean up", agentId: "helper" } });
    assert.is(started.status, 202, JSON.stringify(started.body));
    const { turn } = started.body;
    assert.equal([turn.attached, turn.mode, turn.agentIds], [false, "single", ["helper"]]);
    assert.ok(turn.detachedAt);
    const waiting = await waitUntil(async () => (await runningTurns(rig)).find((t) => t.id === turn.id && t.waitingForApproval), { label: "the turn waits for the approval" });
    assert.ok(waiting.waitingForApproval);
    assert.is(waiting.waitingForApproval.kind, "exec");
    assert.is(waiting.waitingForApproval.command, "rm -rf build");
    assert.ok(Date.parse(waiting.waitingForApproval.expiresAt ?? "") > Date.now());
    assert.equal(waiting.current, { agentId: "helper", round: 1 });
    await turnEvent(sse, "chat.turn.updated", (p) => p.turn.id === turn.id && p.turn.waitingForApproval?.command === "rm -rf build");
    assert.equal((await runningTurns(rig, `?sessionId=${turn.sessionId}`)).map((t) => t.id), [turn.id]);
    assert.equal(await runningTurns(rig, "?sessionId=0b1c9af8-4f37-40a2-822d-a526db4eb2cc"), []);

    // Denied in OpenClaw's own UI: the agent goes on and says so.
    rig.gw.resolveApproval(waiting.waitingForApproval.id, "deny");
    await turnEvent(sse, "chat.turn.updated", (p) => p.turn.id === turn.id && p.turn.waitingForApproval === null, "approval cleared");
    const finished = await turnEvent(sse, "chat.turn.finished", (p) => p.turn.id === turn.id);
    assert.is(finished.replies[0].text, "Did not run rm -rf build: deny");
    assert.equal((await messages(rig, turn.sessionId)).map((m) => m.role), ["user", "agent"]);
  } finally {
    sse.close();
    await rig.close();
  }
});

t("JSON past turnTimeoutMs: 504 GATEWAY_TIMEOUT naming the session and turn; the turn goes on, holding its slot, and its reply arrives in the session", async () => {
  const rig = await startRig({ host: { config: { pluginConfig: { chat: { turnTimeoutMs: 300, rateLimit: { concurrent: 1 } } } } } });
  const sse = await openSse(rig.h.url);
  try {
    const held = heldAgent(rig);
    const res = await rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "Think long", agentId: "main" } });
    assert.is(res.status, 504);
    assert.is(res.body.error?.code, "GATEWAY_TIMEOUT");
    assert.ok(res.body.error);
    const { sessionId, turnId, continues } = res.body.error!.details as { sessionId: string; turnId: string; continues: boolean };
    assert.is(continues, true);
    assert.match(res.body.error?.message ?? "", `GET /api/chat/sessions/${sessionId}`);
    assert.match(res.body.error?.message ?? "", `POST /api/chat/turns/${turnId}/abort`);
    assert.is(rig.gw.requests("chat.abort").length, 0, "the run was not aborted");
    const [turn] = await runningTurns(rig);
    assert.ok(turn);
    assert.equal([turn.id, turn.sessionId, turn.attached], [turnId, sessionId, false]);
    // The background turn holds the one slot until it ends.
    const busy = await rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "meanwhile", agentId: "helper" } });
    assert.is(busy.status, 429);
    held.open("Thought it through");
    const finished = await turnEvent(sse, "chat.turn.finished", (p) => p.turn.id === turnId);
    assert.is(finished.replies[0].text, "Thought it through");
    assert.equal((await messages(rig, sessionId)).map((m) => m.text), ["Think long", "Thought it through"]);
    // The slot is free again (started in the background: this host's wait is short for a loaded machine).
    rig.gw.onChat(() => "quick");
    const next = await rig.h.json<ApiBody<"postChatTurns">>("/api/chat/turns", { method: "POST", body: { message: "after", agentId: "main" } });
    assert.is(next.status, 202, JSON.stringify(next.body));
  } finally {
    sse.close();
    await rig.close();
  }
});

t("a JSON client that leaves: the turn is not aborted and the reply is stored; a client that stays gets today's 200 body", async () => {
  const rig = await startRig();
  try {
    const held = heldAgent(rig);
    const controller = new AbortController();
    const pending = fetch(`${rig.h.url}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "slow", agentId: "main" }), signal: controller.signal }).catch(() => null);
    await waitUntil(() => rig.gw.requests("chat.send").length === 1, { label: "chat.send" });
    controller.abort();
    await pending;
    await serverSawTheClientLeave(rig);
    assert.is(rig.gw.requests("chat.abort").length, 0, "no chat.abort");
    const [turn] = await runningTurns(rig);
    assert.ok(turn);
    held.open("late but stored");
    await waitUntil(async () => (await messages(rig, turn.sessionId)).length === 2, { label: "reply stored" });
    assert.is((await messages(rig, turn.sessionId))[1]?.text, "late but stored");
    assert.is(rig.gw.requests("chat.abort").length, 0);
    rig.gw.onChat(() => "on time");
    const stays = await rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "quick", agentId: "main" } });
    assert.is(stays.status, 200);
    assert.equal(Object.keys(stays.body).sort(), ["mode", "ok", "reply", "sessionId", "usage"]);
  } finally {
    await rig.close();
  }
});

t("cancel: POST /api/chat/turns/:id/abort aborts the run on the gateway; the waiting request gets 409 CHAT_TURN_CANCELLED; nothing stored; a second abort is 404", async () => {
  const rig = await startRig();
  const sse = await openSse(rig.h.url);
  try {
    agentNeedingApproval(rig);
    const waiting = rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "Do it", agentId: "scout" } });
    const turn = await waitUntil(async () => (await runningTurns(rig)).find((t) => t.waitingForApproval), { label: "the turn waits for the approval" });
    const send = rig.gw.requests("chat.send").at(-1);
    const res = await rig.h.json<ApiBody<"postChatTurnsAbortById">>(`/api/chat/turns/${turn.id}/abort`, { method: "POST" });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.outcome, "cancelled");
    assert.is(res.body.error?.code, "CHAT_TURN_CANCELLED");
    assert.equal(res.body.replies, []);
    const abort = await waitUntil(() => rig.gw.requests("chat.abort")[0], { label: "chat.abort" });
    assert.equal(abort.params, { sessionKey: send.params.sessionKey, agentId: "scout", runId: send.params.idempotencyKey });
    const answer = await waiting;
    assert.is(answer.status, 409);
    assert.is(answer.body.error?.code, "CHAT_TURN_CANCELLED");
    const finished = await turnEvent(sse, "chat.turn.finished", (p) => p.turn.id === turn.id);
    assert.is(finished.outcome, "cancelled");
    assert.equal((await messages(rig, turn.sessionId)).map((m) => m.role), ["user"]);
    assert.equal(await runningTurns(rig), []);
    const again = await rig.h.json<ApiBody<"postChatTurnsAbortById">>(`/api/chat/turns/${turn.id}/abort`, { method: "POST" });
    assert.is(again.status, 404);
    assert.is(again.body.error?.code, "CHAT_TURN_NOT_FOUND");
  } finally {
    sse.close();
    await rig.close();
  }
});

t("a turn past turnMaxMs is aborted on the gateway: chat.turn.finished failed with GATEWAY_TIMEOUT, nothing stored, the slot freed", async () => {
  const rig = await startRig({ host: { config: { pluginConfig: { chat: { turnTimeoutMs: 100, turnMaxMs: 400, rateLimit: { concurrent: 1 } } } } } });
  const sse = await openSse(rig.h.url);
  try {
    heldAgent(rig);
    const started = await rig.h.json<ApiBody<"postChatTurns">>("/api/chat/turns", { method: "POST", body: { message: "never ends", agentId: "main" } });
    assert.is(started.status, 202);
    const finished = await turnEvent(sse, "chat.turn.finished", (p) => p.turn.id === started.body.turn.id);
    assert.is(finished.outcome, "failed");
    assert.is(finished.error.code, "GATEWAY_TIMEOUT");
    await waitUntil(() => rig.gw.requests("chat.abort").length === 1, { label: "chat.abort" });
    // The gateway was told the turn's whole time, not the request's wait.
    assert.ok(rig.gw.requests("chat.send")[0].params.timeoutMs > 100);
    assert.equal((await messages(rig, started.body.turn.sessionId)).map((m) => m.role), ["user"]);
    rig.gw.onChat(() => "ok");
    assert.is((await rig.h.json<ApiBody<"postChatTurns">>("/api/chat/turns", { method: "POST", body: { message: "next", agentId: "main" } })).status, 202, "the slot is free again");
  } finally {
    sse.close();
    await rig.close();
  }
});

t("shutdown during a background turn: its run is aborted on the gateway, no unhandled rejection, no reply written", async () => {
  const rig = await startRig();
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", record);
  try {
    agentNeedingApproval(rig);
    const started = await rig.h.json<ApiBody<"postChatTurns">>("/api/chat/turns", { method: "POST", body: { message: "Before the stop", agentId: "main" } });
    await waitUntil(async () => (await runningTurns(rig))[0]?.waitingForApproval, { label: "the turn waits for the approval" });
    const restarted = await rig.h.restart();
    try {
      // Sent before the gateway link closed (the fake records it as it arrives).
      await waitUntil(() => rig.gw.requests("chat.abort").length === 1, { label: "chat.abort" });
      const stored = await restarted.json<ApiBody<"getChatSessionsById">>(`/api/chat/sessions/${started.body.turn.sessionId}`);
      assert.equal(stored.body.messages.map((m) => m.role), ["user"]);
      assert.equal((await restarted.json<ApiBody<"getChatTurns">>("/api/chat/turns")).body.turns, []);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(unhandled, []);
    } finally {
      await restarted.stop();
    }
  } finally {
    process.off("unhandledRejection", record);
    await rig.gw.stop();
  }
});

t("bad input: the background start is checked as POST /api/chat; turn ids, queries and abort bodies are validated", async () => {
  const rig = await startRig();
  try {
    const sends = rig.gw.requests("chat.send").length;
    const cases: Array<[string, string, unknown, number, string]> = [
      ["POST", "/api/chat/turns", { message: "", agentId: "main" }, 400, "VALIDATION_FAILED"],
      ["POST", "/api/chat/turns", { message: "hi", agentId: "main", background: true }, 400, "VALIDATION_FAILED"],
      ["POST", "/api/chat/turns", { message: "hi", agentIds: ["main"], mode: "party" }, 400, "VALIDATION_FAILED"],
      ["POST", "/api/chat/turns", { message: "hi", agentId: "ghost" }, 404, "AGENT_NOT_FOUND"],
      ["POST", "/api/chat/turns", { message: "hi", agentId: "main", sessionId: "0b1c9af8-4f37-40a2-822d-a526db4eb2cc" }, 404, "CHAT_SESSION_NOT_FOUND"],
      ["POST", "/api/chat", { message: "hi", agentId: "main", detach: true }, 400, "VALIDATION_FAILED"],
      ["GET", "/api/chat/turns?sessionId=../x", undefined, 400, "VALIDATION_FAILED"],
      ["GET", "/api/chat/turns?limit=5", undefined, 400, "VALIDATION_FAILED"],
      ["POST", "/api/chat/turns/not-an-id!/abort", undefined, 400, "VALIDATION_FAILED"],
      ["POST", "/api/chat/turns/0b1c9af8-4f37-40a2-822d-a526db4eb2cc/abort", { force: true }, 400, "VALIDATION_FAILED"],
      ["POST", "/api/chat/turns/0b1c9af8-4f37-40a2-822d-a526db4eb2cc/abort", undefined, 404, "CHAT_TURN_NOT_FOUND"],
    ];
    for (const [method, path, body, status, code] of cases) {
      const res = await rig.h.json(path, { method, ...(body === undefined ? {} : { body }) });
      assert.is(res.status, status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.is(res.body.error?.code, code);
    }
    assert.is(rig.gw.requests("chat.send").length, sends, "nothing reached the gateway");
    assert.equal((await rig.h.json<ApiBody<"getChatSessions">>("/api/chat/sessions")).body.sessions, [], "nothing stored");
  } finally {
    await rig.close();
  }
});

t.run();
