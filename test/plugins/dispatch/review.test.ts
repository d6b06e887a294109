// The review flow (DESIGN §14.6) for tasks moved by hand, and the escalation of blocked tasks
// up the organisation's chain (§14.7), through HTTP.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { builtInPlugins } from "../../../plugins/built-in.ts";
import { removeHome, startTestHost } from "../../helpers/start-test-host.ts";
import { sleep, waitUntil } from "../../helpers/wait.ts";
import { makeWorkspace, ORG } from "../agents/agents-rig.ts";
import { createTask, decide, getTask, reviewApprovals, startDispatchRig, type DispatchRig } from "./dispatch-rig.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ rig: DispatchRig }>("dispatch: review flow and escalation");
t.before(async (ctx) => {
  ctx.rig = await startDispatchRig();
});
t.after(async ({ rig }) => rig.close());

const patch = (rig: DispatchRig, id: string, body: Record<string, unknown>) => rig.h.json<ApiBody<"patchTasksById">>(`/api/tasks/${id}`, { method: "PATCH", body });
const pendingReview = (rig: DispatchRig, taskId: string) =>
  waitUntil(async () => (await reviewApprovals(rig.h, taskId)).find((a) => a.status === "pending"), { label: `pending review of ${taskId}` });

t("PATCH to review creates one task.review approval; PATCH to done while it is pending is 409 TASK_REVIEW_PENDING; approving moves the task to done", async (ctx) => {
  const { rig } = ctx;
  const task = await createTask(rig.h, { assignedTo: "loki", status: "in_progress" });
  assert.is((await patch(rig, task.id, { status: "review" })).status, 200);
  const approval = await pendingReview(rig, task.id);
  assert.is(approval.command, "task.review");
  assert.is(approval.taskId, task.id);
  assert.is(approval.gated, true);
  const refused = await patch(rig, task.id, { status: "done" });
  assert.is(refused.status, 409);
  assert.is(refused.body.error?.code, "TASK_REVIEW_PENDING");
  assert.is((await getTask(rig.h, task.id)).status, "review", "nothing written");
  // Another update while in review creates no second approval.
  assert.is((await patch(rig, task.id, { priority: "high" })).status, 200);
  assert.is((await decide(rig.h, approval.id, "approved")).status, 200);
  await waitUntil(async () => (await getTask(rig.h, task.id)).status === "done", { label: "done" });
  assert.is((await reviewApprovals(rig.h, task.id)).length, 1);
});

t("rejecting moves the task back to in_progress with the reason appended to its notes", async ({ rig }) => {
  const task = await createTask(rig.h, { assignedTo: "loki", status: "in_progress", notes: "First draft" });
  await patch(rig, task.id, { status: "review" });
  const approval = await pendingReview(rig, task.id);
  assert.is((await decide(rig.h, approval.id, "rejected", "The changelog is missing")).status, 200);
  const back = await waitUntil(async () => {
    const x = await getTask(rig.h, task.id);
    return x.status === "in_progress" ? x : null;
  }, { label: "back in progress" });
  assert.ok(back.notes?.startsWith("First draft\n\n"), String(back.notes));
  assert.match(String(back.notes), /The changelog is missing/);
  assert.match(String(back.notes), /Daniel/);
  // Done by PATCH is now allowed again (no review pending), and back to review makes a new approval.
  await patch(rig, task.id, { status: "review" });
  await waitUntil(async () => (await reviewApprovals(rig.h, task.id)).length === 2, { label: "second review" });
});

t("10 concurrent PATCHes to review: exactly one pending approval", async ({ rig }) => {
  const task = await createTask(rig.h, { assignedTo: "freya", status: "in_progress" });
  const answers = await Promise.all(Array.from({ length: 10 }, () => patch(rig, task.id, { status: "review" })));
  assert.ok(answers.every((a) => a.status === 200));
  await pendingReview(rig, task.id);
  // Let every task event be handled before counting (nothing to wait on: the count must stay 1).
  await sleep(300);
  assert.is((await reviewApprovals(rig.h, task.id)).length, 1);
});

t("a task created in review gets its approval too; done without review stays allowed", async ({ rig }) => {
  const task = await createTask(rig.h, { status: "review" });
  const approval = await pendingReview(rig, task.id);
  assert.is(approval.requestedBy, "muster");
  const plain = await createTask(rig.h, { status: "in_progress" });
  assert.is((await patch(rig, plain.id, { status: "done" })).status, 200);
});

const blockedNotes = async (rig: DispatchRig, taskId: string) =>
  (await rig.h.json<ApiBody<"getNotifications">>("/api/notifications?limit=500")).body.notifications.filter((n) => n.type === "task.blocked" && n.href?.includes(taskId));

t("blocked → the next level of the chain is notified once per episode, naming the task, with the reason category", async ({ rig }) => {
  const cases = [
    { assignee: "loki", level: /management \(thor\)/, reason: /blocker/ },
    { assignee: "thor", level: /executive \(odin\)/, reason: /resource_conflict/ },
    { assignee: "odin", level: /owner \(Daniel\)/, reason: /strategy/ },
    { assignee: null, level: /owner \(Daniel\)/, reason: /blocker/ },
  ];
  for (const c of cases) {
    const task = await createTask(rig.h, { title: `Blocked for ${c.assignee}`, assignedTo: c.assignee, status: "in_progress" });
    await patch(rig, task.id, { status: "blocked" });
    const [note] = await waitUntil(async () => ((await blockedNotes(rig, task.id)).length ? blockedNotes(rig, task.id) : null), { label: `escalation of ${c.assignee}` });
    assert.ok(note, "a notification");
    assert.match(note.title, c.level);
    assert.ok(note.title.includes(task.id) && note.title.includes(task.title));
    assert.match(note.body, c.reason);
    assert.is(note.priority, "high");
  }
  // Once per episode: another update while blocked notifies nobody; unblocked then blocked again does.
  const task = await createTask(rig.h, { assignedTo: "freya", status: "in_progress" });
  await patch(rig, task.id, { status: "blocked" });
  await waitUntil(async () => (await blockedNotes(rig, task.id)).length === 1, { label: "first episode" });
  await patch(rig, task.id, { priority: "critical" });
  await patch(rig, task.id, { status: "in_progress" });
  await patch(rig, task.id, { status: "blocked" });
  await waitUntil(async () => (await blockedNotes(rig, task.id)).length === 2, { label: "second episode" });
});

t("without the agents plugin, the chain is read from the organisation file", async () => {
  const { home, workspace } = makeWorkspace({ "company/org_structure.yaml": ORG });
  const h = await startTestHost({ home, workspace, plugins: builtInPlugins.filter((p) => p.id !== "agents"), config: { owner: "Daniel" } });
  try {
    const notes = async (taskId: string) => (await h.json<ApiBody<"getNotifications">>("/api/notifications?limit=500")).body.notifications.filter((n) => n.type === "task.blocked" && n.href?.includes(taskId));
    for (const [assignee, level] of [["loki", /management \(thor\)/], ["thor", /executive \(odin\)/], ["odin", /owner \(Daniel\)/]] as const) {
      const task = await createTask(h, { assignedTo: assignee, status: "blocked" });
      const [note] = await waitUntil(async () => ((await notes(task.id)).length ? notes(task.id) : null), { label: `escalation of ${assignee}` });
      assert.ok(note, "a notification");
      assert.match(note.title, level);
    }
  } finally {
    await h.stop();
    removeHome(home);
  }
});

t.run();
