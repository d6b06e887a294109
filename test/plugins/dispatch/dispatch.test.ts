// POST /api/dispatch against the fake gateway (DESIGN §14.6): the happy path to review and
// its approval, the atomic claim under concurrency, bad inputs, gateway faults, the rate
// limit with every slot released, and a restart while a dispatch is in flight.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { untilEveryInstance, waitUntil } from "../../helpers/wait.ts";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import { costEvents, createTask, decide, sends, dispatch, getTask, hold, reviewApprovals, startDispatchRig, waitForDispatch, type DispatchRig } from "./dispatch-rig.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ rig: DispatchRig }>("dispatch");
t.before(async (ctx) => {
  ctx.rig = await startDispatchRig();
});
t.after(async ({ rig }) => rig.close());
t.before.each(({ rig }) => rig.gw.onChat((agentId, message) => ({ text: `Done by ${agentId}: ${message.split("\n")[0]}`, usage: { input: 120, output: 30 } })));

t("happy path: 202 → in_progress → review with the reply stored → one pending task.review approval; approving moves the task to done", async ({ rig }) => {
  const { h, gw } = rig;
  const reply = hold<string>();
  gw.onChat(async () => ({ text: await reply.promise }));
  const task = await createTask(h, { assignedTo: "loki", description: "For 1.4", notes: "Mention the fix" });
  const res = await dispatch(h, task.id);
  assert.is(res.status, 202);
  assert.is(res.body.ok, true);
  const d = res.body.dispatch;
  assert.equal({ taskId: d.taskId, agentId: d.agentId, status: d.status }, { taskId: task.id, agentId: "loki", status: "running" });
  assert.is((await getTask(h, task.id)).status, "in_progress");
  // What the agent was sent: the task's title, description and notes, on the task's own session.
  const send = await waitUntil(() => sends(gw).find((p) => p.sessionKey === `agent:loki:dispatch-${task.id}`), { label: "chat.send" });
  assert.is(send.agentId, "loki");
  for (const part of ["Write the release notes", "For 1.4", "Mention the fix"]) assert.ok(send.message.includes(part), part);
  reply.open("Release notes written");
  const done = await waitForDispatch(h, d.id, "completed");
  assert.is(done.output, "Release notes written");
  await waitUntil(async () => (await getTask(h, task.id)).status === "review", { label: "task in review" });
  const [approval, ...more] = await waitUntil(async () => ((await reviewApprovals(h, task.id)).length ? reviewApprovals(h, task.id) : null), { label: "review approval" });
  assert.is(more.length, 0);
  assert.ok(approval);
  assert.is(approval.status, "pending");
  assert.is(approval.requestedBy, "loki");
  const activities = (await h.json<ApiBody<"getActivities">>("/api/activities?limit=100")).body;
  assert.ok(JSON.stringify(activities).includes("task_dispatch_completed"));
  const approved = await decide(h, approval.id, "approved");
  assert.is(approved.status, 200, JSON.stringify(approved.body));
  await waitUntil(async () => (await getTask(h, task.id)).status === "done", { label: "task done" });
  // Listed newest first.
  const list = (await h.json<ApiBody<"getDispatch">>("/api/dispatch")).body.dispatches;
  assert.is(list[0]?.id, d.id);
});

t("a reply records a cost event for the agent and task", async ({ rig }) => {
  const task = await createTask(rig.h, { assignedTo: "loki" });
  const d = (await dispatch(rig.h, task.id)).body.dispatch;
  const done = await waitForDispatch(rig.h, d.id, "completed");
  assert.is(done.inputTokens, 120);
  assert.is(done.outputTokens, 30);
  const usage = await waitUntil(async () => {
    const body = (await rig.h.json<ApiBody<"getUsage">>("/api/usage")).body;
    return JSON.stringify(body).includes("loki") ? body : null;
  }, { label: "cost event" });
  assert.ok(usage);
});

t("10 concurrent dispatches of one task: one 202, nine 409 DISPATCH_ALREADY_RUNNING, one message sent", async ({ rig }) => {
  const { h, gw } = rig;
  const reply = hold<string>();
  gw.onChat(async () => ({ text: await reply.promise }));
  const task = await createTask(h, { assignedTo: "freya" });
  const answers = await Promise.all(Array.from({ length: 10 }, () => dispatch(h, task.id)));
  const won = answers.filter((a) => a.status === 202);
  const lost = answers.filter((a) => a.status === 409);
  assert.is(won.length, 1, JSON.stringify(answers.map((a) => a.status)));
  assert.is(lost.length, 9);
  for (const a of lost) assert.is(a.body.error?.code, "DISPATCH_ALREADY_RUNNING");
  reply.open("ok");
  await waitForDispatch(h, won[0]!.body.dispatch.id, "completed");
  assert.is(sends(gw).filter((p) => p.sessionKey === `agent:freya:dispatch-${task.id}`).length, 1);
  const dispatches = (await h.json<ApiBody<"getDispatch">>("/api/dispatch?limit=500")).body.dispatches.filter((x) => x.taskId === task.id);
  assert.is(dispatches.length, 1);
});

t("bad inputs: unassigned 400, unknown task 404, unknown agent 404, task in review/done 409, malformed body 400: nothing sent, nothing changed", async ({ rig }) => {
  const { h, gw } = rig;
  const sends = gw.requests("chat.send").length;
  const unassigned = await createTask(h, {});
  let res = await dispatch(h, unassigned.id);
  assert.is(res.status, 400);
  assert.is(res.body.error?.code, "DISPATCH_TASK_UNASSIGNED");
  assert.is((await getTask(h, unassigned.id)).status, "backlog");
  res = await dispatch(h, "no-such-task");
  assert.is(res.status, 404);
  assert.is(res.body.error?.code, "TASK_NOT_FOUND");
  const stranger = await createTask(h, { assignedTo: "nobody-here" });
  res = await dispatch(h, stranger.id);
  assert.is(res.status, 404);
  assert.is(res.body.error?.code, "AGENT_NOT_FOUND");
  assert.is((await getTask(h, stranger.id)).status, "backlog");
  const finished = await createTask(h, { assignedTo: "loki", status: "done" });
  res = await dispatch(h, finished.id);
  assert.is(res.status, 409);
  assert.is(res.body.error?.code, "DISPATCH_TASK_NOT_DISPATCHABLE");
  for (const body of [{}, { taskId: "" }, { taskId: "../etc" }, { taskId: 5 }, { taskId: "a".repeat(200) }, { taskId: "x", extra: 1 }, []]) {
    const r = await h.json<ApiBody<"postDispatch">>("/api/dispatch", { method: "POST", body });
    assert.is(r.status, 400, JSON.stringify(body));
    assert.is(r.body.error?.code, "VALIDATION_FAILED", JSON.stringify(body));
  }
  assert.is((await h.json<ApiBody<"getDispatchById">>("/api/dispatch/no-such-dispatch")).body.error?.code, "DISPATCH_NOT_FOUND");
  assert.is(gw.requests("chat.send").length, sends, "nothing was sent");
});

t("over its daily budget: 409 BUDGET_EXCEEDED before anything changes; a raise lets the dispatch through", async ({ rig }) => {
  const { h, gw } = rig;
  assert.is((await h.json<ApiBody<"putUsageBudgetsByAgentId">>("/api/usage/budgets/odin", { method: "PUT", session: true, body: { dailyCents: 100 } })).status, 200);
  const spent = await h.json<ApiBody<"postUsage">>("/api/usage", { method: "POST", body: { agentId: "odin", model: "claude-opus-4", action: "task", inputTokens: 1_000_000, outputTokens: 0 } });
  assert.is(spent.status, 201, JSON.stringify(spent.body));
  const task = await createTask(h, { assignedTo: "odin" });
  const sent = sends(gw).length;
  const refused = await dispatch(h, task.id);
  assert.is(refused.status, 409);
  assert.is(refused.body.error?.code, "BUDGET_EXCEEDED");
  const after = await getTask(h, task.id);
  assert.is(after.status, "backlog");
  assert.is(after.updatedAt, task.updatedAt);
  assert.is(sends(gw).length, sent);
  assert.ok(!(await h.json<ApiBody<"getDispatch">>("/api/dispatch?limit=500")).body.dispatches.some((d) => d.taskId === task.id));
  assert.is((await h.json<ApiBody<"putUsageBudgetsByAgentId">>("/api/usage/budgets/odin", { method: "PUT", session: true, body: { dailyCents: 1_000_000 } })).status, 200);
  const allowed = await dispatch(h, task.id);
  assert.is(allowed.status, 202);
  await waitForDispatch(h, allowed.body.dispatch.id, "completed");
});

sqliteFileTest(t, "reads each cost event in muster.db (GET /api/usage shows totals only)")("a completed dispatch is a cost event priced with the model its gateway session ran on, not only the configured one", async ({ rig }) => {
  const { h } = rig;
  const task = await createTask(h, { assignedTo: "loki" });
  const res = await dispatch(h, task.id);
  assert.is(res.status, 202, JSON.stringify(res.body));
  await waitForDispatch(h, res.body.dispatch.id, "completed");
  // loki's organisation entry says m-small; the fake gateway's session rows say fake/fake-model.
  const events = costEvents(h, "loki").filter((e) => e.taskId === task.id);
  assert.equal(events.map((e) => e.model), ["fake/fake-model"]);
});

t("the gateway errors mid-run: dispatch failed with the reason, task back to its previous status", async ({ rig }) => {
  const { h, gw } = rig;
  gw.onChat(() => ({ text: "half", error: "model overloaded" }));
  const task = await createTask(h, { assignedTo: "loki", status: "blocked" });
  const d = (await dispatch(h, task.id)).body.dispatch;
  const failed = await waitForDispatch(h, d.id, "failed");
  assert.match(String(failed.error), /model overloaded/);
  await waitUntil(async () => (await getTask(h, task.id)).status === "blocked", { label: "task back to blocked" });
  assert.is((await reviewApprovals(h, task.id)).length, 0);
});

t("the run times out: dispatch failed, task back to backlog, the slot released", async () => {
  const rig = await startDispatchRig({ dispatchConfig: { runTimeoutMs: 200, rateLimit: { concurrent: 1 } } });
  try {
    const { h, gw } = rig;
    gw.onChat((_a, _m, _k, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("late"))));
    const task = await createTask(h, { assignedTo: "loki" });
    const d = (await dispatch(h, task.id)).body.dispatch;
    const failed = await waitForDispatch(h, d.id, "failed");
    assert.match(String(failed.error), /did not finish/);
    await waitUntil(async () => (await getTask(h, task.id)).status === "backlog", { label: "task back to backlog" });
    // The one slot is free again.
    gw.onChat(() => "fine");
    const again = await dispatch(h, task.id);
    assert.is(again.status, 202, JSON.stringify(again.body));
    await waitForDispatch(h, again.body.dispatch.id, "completed");
  } finally {
    await rig.close();
  }
});

t("the gateway connection lost mid-run: dispatch failed, task back to its previous status, nothing re-sent after the reconnect", async () => {
  const rig = await startDispatchRig();
  try {
    const { h, gw } = rig;
    const never = hold<string>();
    gw.onChat(async () => ({ text: await never.promise }));
    const task = await createTask(h, { assignedTo: "loki" });
    const d = (await dispatch(h, task.id)).body.dispatch;
    await waitUntil(() => sends(gw).length === 1, { label: "sent" });
    gw.closeAll(1011, "fake crash");
    const failed = await waitForDispatch(h, d.id, "failed");
    assert.ok(String(failed.error ?? "").length > 0);
    await waitUntil(async () => (await getTask(h, task.id)).status === "backlog", { label: "task back to backlog" });
    await waitUntil(async () => (await h.json<ApiBody<"getHealth">>("/api/health")).body?.gateway?.state === "connected", { timeoutMs: 5_000, label: "reconnected" });
    assert.is(sends(gw).length, 1, "nothing re-sent");
  } finally {
    await rig.close();
  }
});

t("gateway down: 503 GATEWAY_UNAVAILABLE, the task unchanged, no dispatch recorded", async () => {
  const rig = await startDispatchRig();
  try {
    const { h, gw } = rig;
    const task = await createTask(h, { assignedTo: "loki" });
    await gw.stop();
    await untilEveryInstance(async () => (await h.json<ApiBody<"getHealth">>("/api/health")).body?.gateway?.state !== "connected", { timeoutMs: 5_000, label: "gateway down" });
    const res = await dispatch(h, task.id);
    assert.is(res.status, 503);
    assert.is(res.body.error?.code, "GATEWAY_UNAVAILABLE");
    const after = await getTask(h, task.id);
    assert.is(after.status, "backlog");
    assert.is(after.updatedAt, task.updatedAt);
    assert.equal((await h.json<ApiBody<"getDispatch">>("/api/dispatch")).body.dispatches, []);
  } finally {
    await rig.close();
  }
});

t("rate limit: a 4th concurrent dispatch is 429 with Retry-After; every slot is released; the 11th start in a minute is 429", async () => {
  const rig = await startDispatchRig();
  try {
    const { h, gw } = rig;
    const reply = hold<string>();
    gw.onChat(async () => ({ text: await reply.promise }));
    const tasks = await Promise.all(Array.from({ length: 11 }, (_, i) => createTask(h, { title: `t${i}`, assignedTo: "loki" })));
    const first = await Promise.all(tasks.slice(0, 3).map((x) => dispatch(h, x.id)));
    assert.equal(first.map((a) => a.status), [202, 202, 202]);
    const fourth = await dispatch(h, tasks[3]!.id);
    assert.is(fourth.status, 429);
    assert.is(fourth.body.error?.code, "RATE_LIMITED");
    assert.ok(Number(fourth.headers.get("retry-after")) >= 1);
    assert.is((await getTask(h, tasks[3]!.id)).status, "backlog", "refused before anything changed");
    assert.is((await h.json<ApiBody<"getDispatch">>("/api/dispatch?limit=500")).body.dispatches.length, 3);
    reply.open("done");
    for (const a of first) await waitForDispatch(h, a.body.dispatch.id, "completed");
    // Slots released: 7 more start (10 in this minute), the 11th is refused for the minute.
    for (const x of tasks.slice(3, 10)) {
      const a = await dispatch(h, x.id);
      assert.is(a.status, 202, JSON.stringify(a.body));
      await waitForDispatch(h, a.body.dispatch.id, "completed");
    }
    const eleventh = await dispatch(h, tasks[10]!.id);
    assert.is(eleventh.status, 429);
    assert.ok(Number(eleventh.headers.get("retry-after")) > 1);
  } finally {
    await rig.close();
  }
});

t("a restart while a dispatch is in flight: the record says interrupted with a reason, the task is back, nothing is re-sent", async () => {
  let rig = await startDispatchRig();
  try {
    const never = hold<string>();
    rig.gw.onChat(async () => ({ text: await never.promise }));
    const task = await createTask(rig.h, { assignedTo: "loki" });
    const d = (await dispatch(rig.h, task.id)).body.dispatch;
    await waitUntil(() => rig.gw.requests("chat.send").length === 1, { label: "sent" });
    rig.h = await rig.h.restart();
    await waitUntil(async () => (await rig.h.json<ApiBody<"getHealth">>("/api/health")).body?.gateway?.state === "connected", { timeoutMs: 5_000, label: "reconnected" });
    const after = (await rig.h.json<ApiBody<"getDispatchById">>(`/api/dispatch/${d.id}`)).body.dispatch;
    assert.is(after.status, "interrupted");
    assert.match(String(after.error), /not sent again/);
    assert.is((await getTask(rig.h, task.id)).status, "backlog");
    assert.is(rig.gw.requests("chat.send").length, 1, "nothing re-sent");
  } finally {
    await rig.close();
  }
});

t.run();
