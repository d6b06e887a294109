// The SDK's REST client against a real server: typed calls, typed errors, the agent helpers.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createMusterClient, agentActions, isMusterApiError, MusterApiError, MusterTimeoutError } from "@muster/sdk";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";

const t = suite<{ h: TestHost }>("sdk: REST client against a running server");
t.before(async (ctx) => {
  ctx.h = await startTestHost({ config: { approvers: ["freya"] } });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
};

t("typed calls: create, read, filter, update; answers are the server's records", async ({ h }) => {
  const muster = createMusterClient({ url: h.url });
  const task = await muster.postTasks({ body: { title: "Write the SDK docs", priority: "high" } });
  assert.is(task.title, "Write the SDK docs");
  assert.is((await muster.getTasksById({ id: task.id })).id, task.id);
  const high = await muster.getTasks({ query: { status: "backlog" } });
  assert.ok(high.some((x) => x.id === task.id));
  const done = await muster.patchTasksById({ id: task.id, body: { status: "done" } });
  assert.is(done.status, "done");
  assert.ok(done.completedAt);
});

t("errors carry the server's code, status, details and request id", async ({ h }) => {
  const muster = createMusterClient({ url: h.url });
  const missing = await rejection(muster.getTasksById({ id: "no-such-task" }));
  assert.ok(isMusterApiError(missing, "TASK_NOT_FOUND"));
  assert.is((missing as MusterApiError).status, 404);
  assert.ok((missing as MusterApiError).requestId);
  const invalid = (await rejection(muster.postTasks({ body: { title: "" } }))) as MusterApiError;
  assert.is(invalid.code, "VALIDATION_FAILED");
  assert.ok(Array.isArray(invalid.details) && (invalid.details as { path: string }[]).some((d) => d.path === "title"));
  const task = await muster.postTasks({ body: { title: "Delete me" } });
  const unauthorised = (await rejection(muster.deleteTasksById({ id: task.id }))) as MusterApiError;
  assert.is(unauthorised.status, 401);
  const withToken = createMusterClient({ url: h.url, sessionToken: h.token });
  assert.equal(await withToken.deleteTasksById({ id: task.id }), { ok: true });
});

t("agent helpers: claimTask (one winner), logActivity, requestApproval + waitForDecision", async ({ h }) => {
  const human = createMusterClient({ url: h.url, sessionToken: h.token });
  const scout = createMusterClient({ url: h.url, agentId: "scout" }).extend(agentActions);
  const ranger = createMusterClient({ url: h.url, agentId: "ranger" }).extend(agentActions);
  const task = await human.postTasks({ body: { title: "Contested" } });
  const results = await Promise.allSettled([scout.claimTask({ taskId: task.id }), ranger.claimTask({ taskId: task.id })]);
  assert.is(results.filter((r) => r.status === "fulfilled").length, 1);
  const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
  assert.ok(isMusterApiError(lost.reason, "TASK_NOT_CLAIMABLE"));

  const activity = await scout.logActivity({ action: "summarised", target: task.id });
  assert.is(activity.agentId, "scout");

  const approval = await scout.requestApproval({ title: "Send the report", type: "email.send", context: "weekly", payload: { to: "board@example.com" } });
  assert.is(approval.status, "pending");
  assert.is(approval.requestedBy, "scout");
  const waiting = scout.waitForDecision({ approvalId: approval.id, timeoutMs: 20_000 });
  await human.patchApprovalsById({ id: approval.id, body: { status: "approved", decidedBy: "freya" } });
  const decided = await waiting;
  assert.is(decided.status, "approved");
  assert.is(decided.decidedBy, "freya");

  // An agent cannot decide, whatever the SDK sends.
  const second = await scout.requestApproval({ title: "Another", type: "email.send", context: "x" });
  const refused = await rejection(scout.patchApprovalsById({ id: second.id, body: { status: "approved" } }));
  assert.ok(refused instanceof MusterApiError && refused.status >= 401 && refused.status <= 403, String(refused));
  const timedOut = await rejection(scout.waitForDecision({ approvalId: second.id, timeoutMs: 300 }));
  assert.instance(timedOut, MusterTimeoutError);
});

t.run();
