// Issue 12 "a server killed while a dispatch is in flight": the server is a child process,
// the fake gateway holds the dispatched task's run open, the child is SIGKILLed (no shutdown
// hook runs), and a new child on the same MUSTER_HOME must record the dispatch `interrupted`
// with its reason, put the task back to the status it had (not left `in_progress`), send
// nothing again, and dispatch the same task normally. The second test plays a kill between
// recording a dispatch's end and moving its task (the state such a kill leaves, written into
// the killed server's database): the next start moves the task. The third plays kills while a
// task entering review gets its approval: the next start leaves one decidable approval each.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { FakeGateway } from "../../helpers/fake-gateway.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { makeWorkspace, ORG, TOKEN } from "../agents/agents-rig.ts";
import { startMusterChild, type MusterChild } from "../../helpers/muster-child.ts";
import { decideApproval } from "@muster/plugin/testing";
import type { ApiBody } from "@muster/plugin/testing";

const test = suite("dispatch: server killed mid-dispatch");

interface KillRig {
  gw: FakeGateway;
  home: string;
  /** Starts a server child on the rig's home (killed at the end whatever happens). */
  start(): Promise<MusterChild>;
}

/** A fake gateway with the crew's agents and one home with the organisation file; all removed after `fn`. */
async function withKillRig(fn: (rig: KillRig) => Promise<void>): Promise<void> {
  const gw = await FakeGateway.start({ token: TOKEN, agents: ["main", "odin", "thor", "loki", "freya"].map((id) => ({ id })), tickIntervalMs: 5_000 });
  const { home, workspace } = makeWorkspace({ "company/org_structure.yaml": ORG });
  const children: MusterChild[] = [];
  const start = async () => {
    const child = await startMusterChild({ home, workspace, gatewayUrl: gw.url, gatewayToken: TOKEN, env: { MUSTER_OWNER: "Daniel" } });
    children.push(child);
    return child;
  };
  try {
    await fn({ gw, home, start });
  } finally {
    for (const c of children) await c.kill();
    await gw.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

/** Holds every run open until the fake stops (`heldRuns` of them; later ones answer at once). */
function holdRuns(gw: FakeGateway, heldRuns: number): void {
  let calls = 0;
  gw.onChat(async (_agent, _message, _key, ctx) => {
    if (++calls <= heldRuns) await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    return { text: "Release notes written", usage: { input: 100, output: 20 } };
  });
}

test("SIGKILL during a dispatch: interrupted with a reason after restart, task back in backlog, nothing re-sent, a new dispatch works", async () => {
  await withKillRig(async ({ gw, start }) => {
    holdRuns(gw, 1);
    const sends = () => gw.requests("chat.send").map((f) => f.params);
    const first = await start();
    const created = await first.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "Write the release notes", assignedTo: "loki" } });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const task = created.body;
    assert.is(task.status, "backlog");
    const res = await first.json<ApiBody<"postDispatch">>("/api/dispatch", { method: "POST", body: { taskId: task.id } });
    assert.is(res.status, 202, JSON.stringify(res.body));
    const d = res.body.dispatch;
    await waitUntil(() => sends().length === 1, { timeoutMs: 10_000, label: "the dispatch reached the gateway" });
    assert.is(sends()[0].sessionKey, `agent:loki:dispatch-${task.id}`);
    assert.is((await first.json<ApiBody<"getDispatchById">>(`/api/dispatch/${d.id}`)).body.dispatch.status, "running");
    assert.is((await first.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body.status, "in_progress");

    // SIGKILL with the agent's run still open.
    await first.kill();

    const second = await start();
    const after = (await second.json<ApiBody<"getDispatchById">>(`/api/dispatch/${d.id}`)).body.dispatch;
    assert.is(after.status, "interrupted");
    assert.match(String(after.error), /not sent again/);
    assert.ok(after.finishedAt, "an interrupted dispatch has finished");
    assert.ok(after.taskSettledAt, "its task was moved back");
    assert.is((await second.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body.status, "backlog", "the task is back where it was, not left in_progress");
    assert.is(sends().length, 1, "nothing re-sent at start-up");
    const approvals = (await second.json<ApiBody<"getApprovals">>("/api/approvals?limit=500&pendingLimit=500")).body;
    assert.is([...approvals.pending, ...approvals.history].filter((a) => a.taskId === task.id).length, 0, "no review approval for work that was never collected");

    // The same task dispatches normally on the restarted server.
    const again = await second.json<ApiBody<"postDispatch">>("/api/dispatch", { method: "POST", body: { taskId: task.id } });
    assert.is(again.status, 202, JSON.stringify(again.body));
    assert.is.not(again.body.dispatch.id, d.id);
    const done = await waitUntil(async () => {
      const x = (await second.json<ApiBody<"getDispatchById">>(`/api/dispatch/${again.body.dispatch.id}`)).body.dispatch;
      return x.status === "completed" ? x : null;
    }, { timeoutMs: 10_000, label: "the new dispatch completed" });
    assert.is(done.output, "Release notes written");
    await waitUntil(async () => (await second.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body.status === "review", { timeoutMs: 5_000, label: "task in review" });
    assert.is(sends().length, 2, "one send per dispatch");
    const list = (await second.json<ApiBody<"getDispatch">>("/api/dispatch")).body.dispatches.filter((x) => x.taskId === task.id);
    assert.equal(list.map((x) => [x.id, x.status]), [[again.body.dispatch.id, "completed"], [d.id, "interrupted"]]);
  });
});

test("a kill between a dispatch's recorded end and its task's move: the next start moves the task (review / back), nothing re-sent", async () => {
  await withKillRig(async ({ gw, home, start }) => {
    holdRuns(gw, 2);
    const first = await start();
    // Filled for every name by the loop below.
    const ids = {} as Record<"done" | "failed", { task: string; dispatch: string }>;
    for (const name of ["done", "failed"] as const) {
      const task = (await first.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: `Task ${name}`, assignedTo: "loki" } })).body;
      const res = await first.json<ApiBody<"postDispatch">>("/api/dispatch", { method: "POST", body: { taskId: task.id } });
      assert.is(res.status, 202, JSON.stringify(res.body));
      ids[name] = { task: task.id, dispatch: res.body.dispatch.id };
    }
    await waitUntil(() => gw.requests("chat.send").length === 2, { timeoutMs: 10_000, label: "both dispatches sent" });
    await first.kill();
    // What a kill right after `finish()` leaves: the end recorded, the task still in_progress.
    const db = new Database(join(home, "muster.db"));
    try {
      const end = db.prepare("UPDATE dispatch_dispatches SET status = ?, output = ?, error = ?, finishedAt = ? WHERE id = ? AND status = 'running' AND taskSettledAt IS NULL");
      const now = new Date().toISOString();
      assert.is(end.run("completed", "Release notes written", null, now, ids.done.dispatch).changes, 1);
      assert.is(end.run("failed", null, "agent run failed: boom", now, ids.failed.dispatch).changes, 1);
    } finally {
      db.close();
    }

    const second = await start();
    const dispatchOf = async (name: "done" | "failed") => (await second.json<ApiBody<"getDispatchById">>(`/api/dispatch/${ids[name].dispatch}`)).body.dispatch;
    const taskOf = async (name: "done" | "failed") => (await second.json<ApiBody<"getTasksById">>(`/api/tasks/${ids[name].task}`)).body;
    assert.is((await dispatchOf("done")).status, "completed", "an ended dispatch keeps its end");
    assert.is((await dispatchOf("failed")).status, "failed");
    assert.is((await taskOf("done")).status, "review");
    assert.is((await taskOf("failed")).status, "backlog");
    for (const name of ["done", "failed"] as const) assert.ok((await dispatchOf(name)).taskSettledAt, `${name}: settled`);
    const approvals = await waitUntil(async () => {
      const body = (await second.json<ApiBody<"getApprovals">>("/api/approvals?limit=500&pendingLimit=500")).body;
      const found = body.pending.filter((a) => a.taskId === ids.done.task && a.command === "task.review");
      return found.length ? found : null;
    }, { timeoutMs: 5_000, label: "the review approval" });
    assert.is(approvals.length, 1);
    assert.is(gw.requests("chat.send").length, 2, "nothing re-sent");
  });
});

test("kills while a task enters review: after restart each task in review has exactly one pending review approval, and deciding it moves the task", async () => {
  await withKillRig(async ({ home, start }) => {
    const first = await start();
    const reviewApprovals = async (child: MusterChild, taskId: string) =>
      ((await child.json<ApiBody<"getApprovals">>("/api/approvals?limit=500&pendingLimit=500")).body.pending).filter((a) => a.taskId === taskId && a.command === "task.review");
    const names = ["unlinked", "noApproval", "noReview"] as const;
    // Filled for every name by the loop below.
    const tasks = {} as Record<(typeof names)[number], { id: string; approvalId: string }>;
    for (const name of names) {
      const task = (await first.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: `Task ${name}`, assignedTo: "loki" } })).body;
      assert.is((await first.json<ApiBody<"patchTasksById">>(`/api/tasks/${task.id}`, { method: "PATCH", body: { status: "review" } })).status, 200);
      const [approval] = await waitUntil(async () => ((await reviewApprovals(first, task.id)).length ? reviewApprovals(first, task.id) : null), { timeoutMs: 5_000, label: `${name}: review approval` });
      assert.ok(approval, `${name}: review approval`);
      tasks[name] = { id: task.id, approvalId: approval.id };
    }
    await first.kill();
    const db = new Database(join(home, "muster.db"));
    try {
      const unlink = db.prepare("UPDATE dispatch_task_reviews SET approvalId = NULL WHERE taskId = ? AND status = 'pending'");
      const dropApproval = db.prepare("DELETE FROM approvals_approvals WHERE id = ?");
      // Killed after the approval was created, before it was linked to the review.
      assert.is(unlink.run(tasks.unlinked.id).changes, 1);
      // Killed after the review was opened, before its approval was created.
      assert.is(unlink.run(tasks.noApproval.id).changes, 1);
      assert.is(dropApproval.run(tasks.noApproval.approvalId).changes, 1);
      // Killed after the task entered review, before its review was opened.
      assert.is(db.prepare("DELETE FROM dispatch_task_reviews WHERE taskId = ?").run(tasks.noReview.id).changes, 1);
      assert.is(dropApproval.run(tasks.noReview.approvalId).changes, 1);
    } finally {
      db.close();
    }

    const second = await start();
    for (const name of names) {
      const pending = await waitUntil(async () => ((await reviewApprovals(second, tasks[name].id)).length ? reviewApprovals(second, tasks[name].id) : null), { timeoutMs: 5_000, label: `${name}: a pending review approval after restart` });
      assert.is(pending.length, 1, `${name}: exactly one`);
      const [only] = pending;
      assert.ok(only);
      if (name === "unlinked") assert.is(only.id, tasks.unlinked.approvalId, "the approval made before the kill, not a duplicate");
      // Only the approval moves a task in review to done.
      const patched = await second.json<ApiBody<"patchTasksById">>(`/api/tasks/${tasks[name].id}`, { method: "PATCH", body: { status: "done" } });
      assert.equal([patched.status, patched.body?.error?.code], [409, "TASK_REVIEW_PENDING"]);
      // The relinked approval is rejected: only a linked review sends the task back with the reason.
      const [decision, status] = name === "unlinked" ? (["rejected", "in_progress"] as const) : (["approved", "done"] as const);
      const decided = await decideApproval(second, only.id, decision, { decidedBy: "Daniel", reason: "redo the intro" });
      assert.is(decided.status, 200, JSON.stringify(decided.body));
      const task = await waitUntil(async () => {
        const t = (await second.json<ApiBody<"getTasksById">>(`/api/tasks/${tasks[name].id}`)).body;
        return t.status === status ? t : null;
      }, { timeoutMs: 5_000, label: `${name}: ${status}` });
      if (name === "unlinked") assert.match(String(task.notes), /redo the intro/);
    }
  });
});

test.run();
