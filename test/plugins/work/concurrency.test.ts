// Requests that overlap: the reference check of a create or update and the delete of what it
// refers to must not interleave into a record pointing at nothing. Today the awaited check
// and write run without an I/O turn between them (the ORM's SQLite driver is synchronous
// underneath), so no other request's handler can run in between; this guards that.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("work: concurrent requests");

const ROUNDS = 50;

t("tasks created while their project is deleted never keep a reference to the deleted project", async () => {
  await withTestHost(async (h) => {
    for (let round = 0; round < ROUNDS / 10; round++) {
      const project = (await h.json<ApiBody<"postProjects">>("/api/projects", { method: "POST", body: { name: `P${round}` } })).body;
      const create = () => h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "t", projectId: project.id } });
      const creates = Array.from({ length: ROUNDS / 2 }, create);
      const deleted = h.json<ApiBody<"deleteProjects">>(`/api/projects?id=${project.id}`, { method: "DELETE", session: true });
      creates.push(...Array.from({ length: ROUNDS / 2 }, create));
      assert.is((await deleted).status, 200);
      for (const created of await Promise.all(creates)) {
        if (created.status !== 201) continue;
        const task = (await h.json<ApiBody<"getTasksById">>(`/api/tasks/${created.body.id}`)).body;
        assert.is(task.projectId, null, `round ${round}: task ${task.id} refers to deleted project ${project.id}`);
      }
    }
  });
});

t("a task updated while its new project is deleted never keeps a reference to the deleted project", async () => {
  await withTestHost(async (h) => {
    const task = (await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "t" } })).body;
    for (let round = 0; round < ROUNDS; round++) {
      const project = (await h.json<ApiBody<"postProjects">>("/api/projects", { method: "POST", body: { name: `P${round}` } })).body;
      const patch = () => h.json<ApiBody<"patchTasksById">>(`/api/tasks/${task.id}`, { method: "PATCH", body: { projectId: project.id } });
      const patches = [patch(), patch()];
      const deleted = h.json<ApiBody<"deleteProjects">>(`/api/projects?id=${project.id}`, { method: "DELETE", session: true });
      patches.push(patch(), patch());
      const updated = (await Promise.all(patches)).at(-1)!;
      assert.is((await deleted).status, 200);
      const now = (await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body;
      assert.is(now.projectId, null, `round ${round}: task refers to deleted project ${project.id} (PATCH answered ${updated.status})`);
    }
  });
});

t.run();
