import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost }>("work: POST /api/tasks/{id}/claim");
t.before(async (ctx) => {
  ctx.h = await startTestHost();
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const newTask = async (h: TestHost, fields: Record<string, unknown> = {}) => (await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "Claim me", ...fields } })).body;
const claim = (h: TestHost, id: string, agentId: unknown) => h.json<ApiBody<"postTasksClaimById">>(`/api/tasks/${id}/claim`, { method: "POST", body: { agentId } });

t("of 20 agents claiming one task at once exactly one wins; the task is theirs and in progress", async ({ h }) => {
  const task = await newTask(h);
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(h, task.id, `agent-${i}`)));
  const winners = answers.filter((a) => a.status === 200);
  assert.is(winners.length, 1);
  for (const loser of answers.filter((a) => a.status !== 200)) {
    assert.is(loser.status, 409);
    assert.is(loser.body.error?.code, "TASK_NOT_CLAIMABLE");
  }
  const stored = (await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body;
  assert.is(stored.assignedTo, winners[0]!.body.assignedTo);
  assert.is(stored.status, "in_progress");
});

t("the same agent claiming again is a safe no-op; a task assigned to it in backlog can be claimed", async ({ h }) => {
  const mine = await newTask(h, { assignedTo: "odin" });
  const first = await claim(h, mine.id, "odin");
  assert.is(first.status, 200);
  const again = await claim(h, mine.id, "odin");
  assert.is(again.status, 200);
  assert.is(again.body.status, "in_progress");
  assert.is((await claim(h, mine.id, "loki")).body.error?.code, "TASK_NOT_CLAIMABLE");
});

t("tasks that are someone else's, done, in review or blocked are not claimable; nothing changes", async ({ h }) => {
  for (const fields of [{ assignedTo: "thor" }, { status: "done" }, { status: "review" }, { status: "blocked" }]) {
    const task = await newTask(h, fields);
    const res = await claim(h, task.id, "odin");
    assert.is(res.status, 409, JSON.stringify(fields));
    assert.is(res.body.error?.code, "TASK_NOT_CLAIMABLE");
    const stored = (await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body;
    assert.is(stored.updatedAt, task.updatedAt);
    assert.is(stored.assignedTo, task.assignedTo);
  }
});

t("bad claims: unknown task 404, missing or malformed agentId 400, unknown field 400", async ({ h }) => {
  assert.is((await claim(h, "no-such-task", "odin")).body.error?.code, "TASK_NOT_FOUND");
  const task = await newTask(h);
  for (const body of [{}, { agentId: "" }, { agentId: 7 }, { agentId: "odin", status: "done" }]) {
    const res = await h.json<ApiBody<"postTasksClaimById">>(`/api/tasks/${task.id}/claim`, { method: "POST", body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error?.code, "VALIDATION_FAILED");
  }
  assert.is((await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body.status, "backlog");
});

t.run();
