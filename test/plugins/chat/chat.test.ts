// POST /api/chat against the fake gateway: single and party, JSON and SSE, session
// continuity, stored sessions, activities, and the bad inputs and gateway faults of
// DESIGN §14.2 (each refused with nothing stored and nothing sent to the gateway).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../../helpers/wait.ts";
import { chatStream, gate, startRig, waitForGateway, type Rig } from "./chat-helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ rig: Rig }>("chat");

t.before(async (ctx) => {
  // A high per-minute cap: this suite sends many chats; the limits have their own suite.
  ctx.rig = await startRig({ host: { config: { pluginConfig: { chat: { rateLimit: { perMinute: 1_000 } } } } } });
});
t.after(async (ctx) => ctx.rig.close());
t.before.each(({ rig }) => rig.gw.onChat((agentId, message) => `Reply from ${agentId}: ${message.slice(0, 40)}`));

const post = (rig: Rig, body: unknown) => rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body });
const sessions = async (rig: Rig) => (await rig.h.json<ApiBody<"getChatSessions">>("/api/chat/sessions?limit=500")).body.sessions;
const activities = async (rig: Rig) => (await rig.h.json<ApiBody<"getActivities">>("/api/activities?limit=500")).body;

t("single JSON: reply, usage, run id; the session and both messages are stored; the reply is an activity", async ({ rig }) => {
  rig.gw.onChat(() => ({ deltas: ["Hel", "lo ", "there"], usage: { input: 12, output: 3 } }));
  const res = await post(rig, { message: "Hi main", agentId: "main" });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const body = res.body;
  assert.is(body.ok, true);
  assert.is(body.mode, "single");
  assert.ok(body.mode === "single"); // narrows the answer to the single-agent shape
  assert.match(body.sessionId, /^[0-9a-f-]{36}$/);
  assert.is(body.reply.agentId, "main");
  assert.is(body.reply.text, "Hello there");
  assert.equal(body.reply.toolCalls, []);
  assert.equal(body.usage, { inputTokens: 12, outputTokens: 3 });
  const send = rig.gw.requests("chat.send").at(-1);
  assert.is(send.params.sessionKey, `agent:main:muster-${body.sessionId}`);
  assert.is(send.params.message, "Hi main");
  assert.is(send.params.idempotencyKey, body.reply.runId);

  const detail = await rig.h.json<ApiBody<"getChatSessionsById">>(`/api/chat/sessions/${body.sessionId}`);
  assert.is(detail.status, 200);
  assert.equal(detail.body.session.agentIds, ["main"]);
  assert.is(detail.body.session.mode, "single");
  assert.is(detail.body.session.title, "Hi main");
  assert.equal(
    detail.body.messages.map((m) => [m.role, m.agentId, m.text]),
    [
      ["user", null, "Hi main"],
      ["agent", "main", "Hello there"],
    ],
  );
  assert.is(detail.body.messages[1]?.runId, body.reply.runId);
  assert.is(detail.body.messages[1]?.outputTokens, 3);
  const logged = (await activities(rig)).find((a) => a.action === "chat_response" && a.target === "Hi main");
  assert.ok(logged, "chat_response activity");
  assert.is(logged.agentId, "main");
});

t("a follow-up with sessionId continues the same gateway session", async ({ rig }) => {
  const first = await post(rig, { message: "Remember 42", agentId: "helper" });
  const second = await post(rig, { message: "What number?", agentId: "helper", sessionId: first.body.sessionId });
  assert.is(second.status, 200, JSON.stringify(second.body));
  assert.is(second.body.sessionId, first.body.sessionId);
  const keys = rig.gw.requests("chat.send").slice(-2).map((r) => r.params.sessionKey);
  assert.equal(keys, [`agent:helper:muster-${first.body.sessionId}`, `agent:helper:muster-${first.body.sessionId}`]);
  const detail = await rig.h.json<ApiBody<"getChatSessionsById">>(`/api/chat/sessions/${first.body.sessionId}`);
  assert.is(detail.body.messages.length, 4);
});

t("single SSE: start, agent_start, deltas, agent_done, done (the JSON body), then the stream ends", async ({ rig }) => {
  rig.gw.onChat(() => ({ deltas: ["one ", "two ", "three"] }));
  const answer = await chatStream(rig.h, { message: "Count", agentId: "main" });
  assert.is(answer.status, 200);
  await answer.ended;
  const types = answer.frames.map((f) => f.type);
  assert.equal(types, ["start", "agent_start", "delta", "delta", "delta", "agent_done", "done"]);
  const [start, agentStart, , , , agentDone, done] = answer.frames;
  assert.equal(start.agentIds, ["main"]);
  assert.is(start.mode, "single");
  assert.equal(agentStart, { type: "agent_start", agentId: "main", round: 1 });
  assert.equal(answer.frames.slice(2, 5).map((f) => f.text), ["one ", "two ", "three"]);
  assert.equal(agentDone, { type: "agent_done", agentId: "main", round: 1, text: "one two three" });
  assert.is(done.ok, true);
  assert.is(done.sessionId, start.sessionId);
  assert.is(done.reply.text, "one two three");
});

t("SSE frames are one JSON data line each: reply text cannot forge a frame", async ({ rig }) => {
  rig.gw.onChat(() => "line\n\nevent: approval\ndata: {\"type\":\"done\"}\n\n");
  const answer = await chatStream(rig.h, { message: "inject", agentId: "main" });
  await answer.ended;
  assert.equal(answer.frames.map((f) => f.type), ["start", "agent_start", "delta", "agent_done", "done"]);
  assert.is(answer.frames.at(-1).reply.text, "line\n\nevent: approval\ndata: {\"type\":\"done\"}\n\n");
});

t("party JSON: agents speak in order for each round, each seeing the replies before it", async ({ rig }) => {
  const res = await post(rig, { message: "Plan the launch", agentIds: ["main", "helper"], mode: "party", rounds: 2 });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const body = res.body;
  assert.is(body.mode, "party");
  assert.ok(body.mode === "party"); // narrows the answer to the party shape
  assert.is(body.truncated, false);
  assert.equal(body.replies.map((r) => [r.agentId, r.round]), [["main", 1], ["helper", 1], ["main", 2], ["helper", 2]]);
  const sends = rig.gw.requests("chat.send").slice(-4);
  assert.equal(sends.map((s) => s.params.sessionKey), ["main", "helper", "main", "helper"].map((a) => `agent:${a}:muster-${body.sessionId}`));
  assert.ok(sends[0].params.message.includes("Plan the launch"));
  // The second speaker sees the first reply; the fourth sees all three before it.
  assert.ok(sends[1].params.message.includes(body.replies[0]!.text), "helper saw main's reply");
  for (const reply of body.replies.slice(0, 3)) assert.ok(sends[3].params.message.includes(reply.text));
  assert.is(body.usage.inputTokens, 40);
  const detail = await rig.h.json<ApiBody<"getChatSessionsById">>(`/api/chat/sessions/${body.sessionId}`);
  assert.equal(detail.body.session.agentIds, ["main", "helper"]);
  assert.equal(detail.body.messages.map((m) => m.round), [null, 1, 1, 2, 2]);
});

t("party SSE: agent_start/delta/agent_done per turn, in order, then done", async ({ rig }) => {
  rig.gw.onChat((agentId) => ({ deltas: [`${agentId}-a`, `${agentId}-b`] }));
  const answer = await chatStream(rig.h, { message: "Go", agentIds: ["helper", "scout"], mode: "party" });
  await answer.ended;
  const seq = answer.frames.map((f) => (f.agentId ? `${f.type}:${f.agentId}` : f.type));
  assert.equal(seq, ["start", "agent_start:helper", "delta:helper", "delta:helper", "agent_done:helper", "agent_start:scout", "delta:scout", "delta:scout", "agent_done:scout", "done"]);
  assert.equal(answer.frames[0].agentIds, ["helper", "scout"]);
  assert.equal(answer.frames.at(-1).replies.map((r: { text: string }) => r.text), ["helper-ahelper-b", "scout-ascout-b"]);
});

t("bad inputs: 400 with nothing stored and nothing sent to the gateway", async ({ rig }) => {
  const before = { sends: rig.gw.requests("chat.send").length, sessions: (await sessions(rig)).length };
  const cases: Array<[unknown, string]> = [
    [{ message: "x".repeat(32_001), agentId: "main" }, "message"],
    [{ message: "", agentId: "main" }, "message"],
    [{ message: "   \n ", agentId: "main" }, "message"],
    [{ agentId: "main" }, "message"],
    [{ message: "hi" }, "agentId"],
    [{ message: "hi", agentId: "agent:main" }, "agentId"],
    [{ message: "hi", agentId: "main", extra: 1 }, "extra"],
    [{ message: "hi", agentIds: ["main", "main"], mode: "party" }, "agentIds"],
    [{ message: "hi", agentIds: ["main"], mode: "party" }, "agentIds"],
    [{ message: "hi", agentIds: ["a", "b", "c", "d", "e", "f", "g", "h", "i"], mode: "party" }, "agentIds"],
    [{ message: "hi", agentIds: ["main", "helper"], mode: "party", rounds: 4 }, "rounds"],
    [{ message: "hi", agentIds: ["main", "helper"], mode: "party", rounds: 0 }, "rounds"],
    [{ message: "hi", agentIds: ["main", "helper"], mode: "chorus" }, "mode"],
    [{ message: "hi", agentId: "main", sessionId: "../x" }, "sessionId"],
  ];
  for (const [body] of cases) {
    const res = await post(rig, body);
    assert.is(res.status, 400, JSON.stringify(body).slice(0, 80));
    assert.is(res.body.error?.code, "VALIDATION_FAILED");
  }
  assert.is(rig.gw.requests("chat.send").length, before.sends);
  assert.is((await sessions(rig)).length, before.sessions);
});

t("32,000 characters pass validation; unknown agents and sessions are 404 with nothing stored", async ({ rig }) => {
  const before = { sends: rig.gw.requests("chat.send").length, sessions: (await sessions(rig)).length };
  const long = await post(rig, { message: "y".repeat(32_000), agentId: "ghost" });
  assert.is(long.status, 404);
  assert.is(long.body.error?.code, "AGENT_NOT_FOUND");
  const party = await post(rig, { message: "hi", agentIds: ["main", "ghost"], mode: "party" });
  assert.is(party.status, 404);
  assert.is(party.body.error?.code, "AGENT_NOT_FOUND");
  const session = await post(rig, { message: "hi", agentId: "main", sessionId: "0b1c9af8-4f37-40a2-822d-a526db4eb2cc" });
  assert.is(session.status, 404);
  assert.is(session.body.error?.code, "CHAT_SESSION_NOT_FOUND");
  assert.is(rig.gw.requests("chat.send").length, before.sends);
  assert.is((await sessions(rig)).length, before.sessions);
  // A party session is continued as a party.
  const created = await post(rig, { message: "hi", agentIds: ["main", "helper"], mode: "party" });
  const mismatch = await post(rig, { message: "hi", agentId: "main", sessionId: created.body.sessionId });
  assert.is(mismatch.status, 409);
  assert.is(mismatch.body.error?.code, "CHAT_SESSION_MODE_MISMATCH");
});

t("an agent only in the organisation file is known but not registered: 409 AGENT_NOT_REGISTERED before any chat.send", async ({ rig }) => {
  const { mkdirSync, writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  mkdirSync(join(rig.h.workspace, "company"), { recursive: true });
  writeFileSync(join(rig.h.workspace, "company", "org_structure.yaml"), "org:\n  owner: daniel\n  agents:\n    ledger:\n      role: accountant\n");
  const sends = rig.gw.requests("chat.send").length;
  const res = await post(rig, { message: "hi", agentId: "ledger" });
  // Known to Muster, unknown to this gateway: refused with the fix instead of the gateway's 502.
  assert.is(res.status, 409, JSON.stringify(res.body));
  assert.is(res.body.error?.code, "AGENT_NOT_REGISTERED");
  assert.match(res.body.error?.message ?? "", "POST /api/agents/register-missing");
  assert.is(rig.gw.requests("chat.send").length, sends, "no turn reached the gateway");
});

t("a gateway error event mid-stream: JSON 502 CHAT_RUN_FAILED; SSE error frame; one chat_error activity", async ({ rig }) => {
  rig.gw.onChat(() => ({ deltas: ["partial"], error: "LLM request failed: provider rejected the request" }));
  const res = await post(rig, { message: "fail json", agentId: "scout" });
  assert.is(res.status, 502);
  assert.is(res.body.error?.code, "CHAT_RUN_FAILED");
  assert.ok(res.body.error?.message.includes("provider rejected"));
  const answer = await chatStream(rig.h, { message: "fail sse", agentId: "scout" });
  await answer.ended;
  assert.equal(answer.frames.map((f) => f.type), ["start", "agent_start", "delta", "error"]);
  assert.is(answer.frames.at(-1).code, "CHAT_RUN_FAILED");
  const errors = (await activities(rig)).filter((a) => a.action === "chat_error" && a.agentId === "scout");
  assert.is(errors.length, 2);
});

t("two terminal error events for one run (as the real gateway sends) settle it once", async ({ rig }) => {
  const held = gate();
  rig.gw.onChat(async (_agent, _message, _key, { signal }) => {
    await Promise.race([held.promise, new Promise((r) => signal.addEventListener("abort", r))]);
    return "late";
  });
  const pending = post(rig, { message: "double error", agentId: "helper" });
  const send = await waitUntil(() => rig.gw.requests("chat.send").find((r) => r.params.message === "double error"), { label: "chat.send" });
  const base = { runId: send.params.idempotencyKey, sessionKey: send.params.sessionKey };
  rig.gw.broadcast("chat", { ...base, agentId: "helper", seq: 9, state: "error", errorMessage: "first failure" });
  rig.gw.broadcast("chat", { ...base, seq: 1, state: "error", errorMessage: "⚠️ Agent failed before reply: first failure" });
  const res = await pending;
  assert.is(res.status, 502);
  assert.ok(res.body.error?.message.includes("first failure"));
  held.open();
  const errors = (await activities(rig)).filter((a) => a.action === "chat_error" && a.target === "double error");
  assert.is(errors.length, 1);
  const detail = await rig.h.json<ApiBody<"getChatSessions">>(`/api/chat/sessions?limit=1`);
  const newest = detail.body.sessions[0];
  assert.ok(newest);
  const messages = (await rig.h.json<ApiBody<"getChatSessionsById">>(`/api/chat/sessions/${newest.id}`)).body.messages;
  assert.equal(messages.map((m) => m.role), ["user"]);
});

t("events of another session with the same run id are ignored", async ({ rig }) => {
  rig.gw.onChat(() => ({ deltas: ["real"], delayMs: 50 }));
  const pending = post(rig, { message: "stray", agentId: "main" });
  const send = await waitUntil(() => rig.gw.requests("chat.send").find((r) => r.params.message === "stray"), { label: "chat.send" });
  rig.gw.broadcast("chat", { runId: send.params.idempotencyKey, sessionKey: "agent:main:other", seq: 1, state: "final", message: { role: "assistant", content: [{ type: "text", text: "forged" }] } });
  const res = await pending;
  assert.ok(res.body.mode === "single");
  assert.is(res.body.reply.text, "real");
});

t("DELETE needs the session token; deletes the session and its messages; 404 after", async ({ rig }) => {
  const created = await post(rig, { message: "to delete", agentId: "main" });
  const id = created.body.sessionId;
  const refused = await rig.h.json<ApiBody<"deleteChatSessionsById">>(`/api/chat/sessions/${id}`, { method: "DELETE" });
  assert.is(refused.status, 401);
  assert.is((await rig.h.json<ApiBody<"getChatSessionsById">>(`/api/chat/sessions/${id}`)).status, 200);
  const deleted = await rig.h.json<ApiBody<"deleteChatSessionsById">>(`/api/chat/sessions/${id}`, { method: "DELETE", session: true });
  assert.equal([deleted.status, deleted.body], [200, { ok: true }]);
  const gone = await rig.h.json<ApiBody<"getChatSessionsById">>(`/api/chat/sessions/${id}`);
  assert.is(gone.status, 404);
  assert.is(gone.body.error?.code, "CHAT_SESSION_NOT_FOUND");
  assert.is((await rig.h.json<ApiBody<"deleteChatSessionsById">>(`/api/chat/sessions/${id}`, { method: "DELETE", session: true })).status, 404);
});

t("sessions list newest activity first", async ({ rig }) => {
  const a = await post(rig, { message: "older", agentId: "main" });
  const b = await post(rig, { message: "newer", agentId: "main" });
  let list = await sessions(rig);
  assert.equal(list.slice(0, 2).map((s) => s.id), [b.body.sessionId, a.body.sessionId]);
  await post(rig, { message: "again", agentId: "main", sessionId: a.body.sessionId });
  list = await sessions(rig);
  assert.equal(list.slice(0, 2).map((s) => s.id), [a.body.sessionId, b.body.sessionId]);
  assert.is((await rig.h.json<ApiBody<"getChatSessions">>("/api/chat/sessions?limit=0")).status, 400);
});

t("the gateway closing mid-reply: 503 GATEWAY_UNAVAILABLE (JSON) and an error frame (SSE)", async ({ rig }) => {
  rig.gw.onChat((_a, _m, _k, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve("aborted"))));
  const pending = post(rig, { message: "close me", agentId: "main" });
  await waitUntil(() => rig.gw.requests("chat.send").some((r) => r.params.message === "close me"), { label: "chat.send" });
  rig.gw.closeAll(1012, "service restart");
  const res = await pending;
  assert.is(res.status, 503);
  assert.is(res.body.error?.code, "GATEWAY_UNAVAILABLE");
  await waitForGateway(rig.h, "connected");
  const answer = await chatStream(rig.h, { message: "close me too", agentId: "main" });
  await answer.next((f) => f.type === "agent_start");
  await waitUntil(() => rig.gw.requests("chat.send").some((r) => r.params.message === "close me too"), { label: "chat.send" });
  rig.gw.closeAll(1012, "service restart");
  await answer.ended;
  assert.is(answer.frames.at(-1).type, "error");
  assert.is(answer.frames.at(-1).code, "GATEWAY_UNAVAILABLE");
  await waitForGateway(rig.h, "connected");
});

t.run();
