// Requests that overlap: the reference check of a create or update and the delete of what it
// refers to must not interleave into a record pointing at nothing. An update's awaited check
// and write run without an I/O turn between them (the ORM's SQLite driver is synchronous
// underneath); a create's row is written at the end of the turn, in one commit with the
// other creates of that turn (the store kit's group commit), and its references are checked
// again in that step. Creates sent together are each answered, and announced, once stored.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { eventRecorder, type ApiBody } from "@muster/plugin/testing";

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

t("creates sent together are each stored once, answered and announced; one naming a missing project is refused alone", async () => {
  const recorder = eventRecorder("work.*");
  await withTestHost({ extraPlugins: [recorder.plugin] }, async (h) => {
    const project = (await h.json<ApiBody<"postProjects">>("/api/projects", { method: "POST", body: { name: "Together" } })).body;
    const bodies = Array.from({ length: 20 }, (_, i) => ({ title: `together ${i}`, ...(i === 7 ? { projectId: "no-such-project" } : i % 2 ? { projectId: project.id } : {}) }));
    const answers = await Promise.all(bodies.map((body) => h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body })));
    const refused = answers[7]!;
    assert.is(refused.status, 400, JSON.stringify(refused.body));
    assert.is((refused.body as unknown as { error: { code: string } }).error.code, "WORK_REFERENCE_NOT_FOUND");
    const created = answers.filter((_, i) => i !== 7);
    assert.ok(created.every((a) => a.status === 201), created.map((a) => a.status).join(","));
    const listed = (await h.json<ApiBody<"getTasks">>("/api/tasks")).body.map((task) => task.title).sort();
    assert.equal(listed, bodies.filter((_, i) => i !== 7).map((b) => b.title).sort(), "each create stored once, the refused one not at all");
    // Each answered create was announced, with the row as stored.
    const announced = recorder.events.filter((event) => event.name === "work.task.created");
    const byId = new Map(announced.map((event) => [(event.payload as { id: string }).id, event.payload as { projectId: string | null }]));
    for (const answer of created) assert.is(byId.get(answer.body.id)?.projectId, answer.body.projectId, answer.body.id);
    assert.is(announced.length, 19);
  });
});

t.run();
