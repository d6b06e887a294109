// POST /api/dispatch through Muster to the real gateway and the fake model behind it: the task
// reaches the model, ends in `review` with a pending task.review approval, and approving it
// moves the task to `done` (DESIGN §14.6, the spec's approval gate rules 1–3).
import { randomUUID } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../helpers/wait.ts";
import { boundedTest, CHAT_TEST_MS } from "./support/bounded.ts";
import { withMuster } from "./support/muster.ts";
import { peer } from "./support/peer.ts";
import { decideApproval } from "@muster/plugin/testing";
import type { ApiBody } from "@muster/plugin/testing";

const test = suite("dispatch");

boundedTest(test, "a task dispatched to main ends in review with a pending approval; approving it moves the task to done", 2 * CHAT_TEST_MS, async () => {
  const { model } = peer();
  const marker = `MARK-dispatch-${randomUUID().slice(0, 8)}`;
  await withMuster(
    async (h) => {
      const created = await h.json("/api/tasks", { method: "POST", body: { title: `Summarise ${marker}`, description: "One line is enough.", assignedTo: "main" } });
      assert.is(created.status, 201, JSON.stringify(created.body));
      const task = created.body;
      const res = await h.json("/api/dispatch", { method: "POST", body: { taskId: task.id } });
      assert.is(res.status, 202, JSON.stringify(res.body));
      assert.is((await h.json(`/api/tasks/${task.id}`)).body.status, "in_progress");
      await model.waitForRequest((r) => r.lastUserText.includes(marker), CHAT_TEST_MS, "the dispatched task at the model");
      const dispatch = await waitUntil(async () => {
        const d = (await h.json(`/api/dispatch/${res.body.dispatch.id}`)).body.dispatch;
        return d.status !== "running" ? d : null;
      }, { timeoutMs: CHAT_TEST_MS, label: "dispatch ended" });
      assert.is(dispatch.status, "completed", JSON.stringify(dispatch));
      assert.ok((dispatch.output ?? "").length > 0);
      await waitUntil(async () => (await h.json(`/api/tasks/${task.id}`)).body.status === "review", { timeoutMs: 5_000, label: "task in review" });
      const approval = await waitUntil(async () => {
        const body = (await h.json<ApiBody<"getApprovals">>("/api/approvals?pendingLimit=500")).body;
        return body.pending.find((a) => a.taskId === task.id && a.command === "task.review");
      }, { timeoutMs: 5_000, label: "pending review approval" });
      const decided = await decideApproval(h, approval.id, "approved", "Owner");
      assert.is(decided.status, 200, JSON.stringify(decided.body));
      await waitUntil(async () => (await h.json(`/api/tasks/${task.id}`)).body.status === "done", { timeoutMs: 5_000, label: "task done" });
    },
    { config: { owner: "Owner" } },
  );
});

test.run();
