// The work plugin (tasks, sprints, epics, stories, projects) on a real, throwaway PostgreSQL
// (issue 25): its store left `db.sql` (statements prepared once for create and the unfiltered
// list, a delete's reference clearing in one synchronous transaction) for the store kit and
// `atomically` steps there. Driven over HTTP as on SQLite (test/plugins/work): the same
// answers, order, pages, codes and events; one winner of 20 concurrent claims; a delete and
// its reference clearing commit together or not at all; a create racing the delete of what it
// refers to never keeps a dangling reference. One cluster for the file, always stopped;
// skipped, with the reason printed, where PostgreSQL's server binaries are missing.
import * as assert from "uvu/assert";
import { createRequire } from "node:module";
import type { ApiBody } from "@muster/plugin/testing";
import { workPlugin } from "../../plugins/work/index.ts";
import { withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { eventRecorder } from "../helpers/wait.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";

const { t, test, database } = postgresSuite("work on PostgreSQL");

/** The part of `pg`'s Client the tests use (`pg` ships no types; it comes with MikroORM's driver). */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}
const { Client } = createRequire(import.meta.url)("pg") as { Client: new (options: { connectionString: string }) => PgClient };

/** How many racers the claim test starts at once. */
const RACERS = 20;

const recorder = eventRecorder("work.*");

/** `fn` on a host of the work plugin on a fresh database; also the database's URL. */
async function onPostgres(fn: (h: TestHost, url: string) => Promise<void>): Promise<void> {
  const url = await database();
  await withTestHost({ plugins: [workPlugin], extraPlugins: [recorder.plugin], env: { DATABASE_URL: url } }, (h) => fn(h, url));
}

const postTask = (h: TestHost, body: unknown) => h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body });
const post = (h: TestHost, path: string, body: unknown) => h.json<{ id: string } & Record<string, unknown>>(path, { method: "POST", body });
const taskIds = async (h: TestHost, query: string) => {
  const res = await h.json<ApiBody<"getTasks">>(`/api/tasks?${query}`);
  assert.is(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
  assert.ok(Array.isArray(res.body), "still the bare array");
  return { ids: (res.body as { id: string }[]).map((x) => x.id), total: Number(res.headers.get("x-total-count")) };
};

test("tasks: create with the spec defaults, get, update, the list newest first, filters and pages as on SQLite; events published", async () => {
  await onPostgres(async (h) => {
    const created = await postTask(h, { title: "Write the README" });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const task = created.body;
    assert.equal(
      { ...task, id: undefined, createdAt: undefined, updatedAt: undefined },
      {
        id: undefined, title: "Write the README", description: null, status: "backlog", priority: "medium", assignedTo: null,
        projectId: null, storyId: null, sprintId: null, estimatedHours: null, actualHours: null, tags: null, notes: null,
        createdAt: undefined, updatedAt: undefined, completedAt: null,
      },
    );
    assert.equal((await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body, task, "read back exactly as created");
    await recorder.waitFor("work.task.created", (e) => (e.payload as { id: string }).id === task.id);

    const done = await h.json<ApiBody<"patchTasksById">>(`/api/tasks/${task.id}`, { method: "PATCH", body: { status: "done", estimatedHours: 3 } });
    assert.is(done.status, 200, JSON.stringify(done.body));
    assert.is(done.body.status, "done");
    assert.is(done.body.estimatedHours, 3, "an integer column comes back a number");
    assert.ok(done.body.completedAt, "done sets completedAt");
    assert.ok(done.body.updatedAt >= task.updatedAt);
    await recorder.waitFor("work.task.updated", (e) => (e.payload as { id: string; status: string }).id === task.id && (e.payload as { status: string }).status === "done");

    // Created back to back, several in one millisecond: newest first all the same.
    const burst: string[] = [];
    for (let i = 0; i < 30; i++) burst.push((await postTask(h, { title: `burst ${i}`, tags: "burst" })).body.id);
    const everything = await taskIds(h, "");
    assert.equal(everything.ids.slice(0, 30), [...burst].reverse(), "insertion order breaks ties of the same updatedAt");
    assert.is(everything.total, 31);

    const project = (await post(h, "/api/projects", { name: "filtered" })).body.id;
    const sprint = (await post(h, "/api/sprints", { name: "filtered" })).body.id;
    const make = async (title: string, extra: Record<string, unknown> = {}) => (await postTask(h, { title, projectId: project, ...extra })).body.id;
    const t1 = await make("t1", { status: "done", assignedTo: "freya" });
    const t2 = await make("t2", { status: "done", assignedTo: "odin", sprintId: sprint });
    const t3 = await make("t3", { status: "blocked", assignedTo: "freya", sprintId: sprint });
    const t4 = await make("t4");
    const t5 = await make("t5", { assignedTo: "freya", priority: "critical" });
    const other = (await postTask(h, { title: "elsewhere", status: "done", assignedTo: "freya", sprintId: sprint })).body.id;
    assert.equal(await taskIds(h, `projectId=${project}`), { ids: [t5, t4, t3, t2, t1], total: 5 }, "most recently updated first");
    assert.equal(await taskIds(h, `projectId=${project}&status=done`), { ids: [t2, t1], total: 2 });
    assert.equal(await taskIds(h, `projectId=${project}&assignedTo=freya`), { ids: [t5, t3, t1], total: 3 });
    assert.equal(await taskIds(h, `sprintId=${sprint}&assignedTo=freya`), { ids: [other, t3], total: 2 });
    assert.equal(await taskIds(h, `projectId=${project}&priority=critical`), { ids: [t5], total: 1 });
    assert.equal(await taskIds(h, `projectId=${project}&assignedTo=nobody`), { ids: [], total: 0 });
    assert.equal(await taskIds(h, `projectId=${project}&limit=2`), { ids: [t5, t4], total: 5 });
    assert.equal(await taskIds(h, `projectId=${project}&limit=2&offset=2`), { ids: [t3, t2], total: 5 });
    assert.equal(await taskIds(h, `projectId=${project}&limit=2&offset=4`), { ids: [t1], total: 5 });
    assert.equal(await taskIds(h, `projectId=${project}&offset=9`), { ids: [], total: 5 });
  });
});

test("pages of the whole list and of filters keep the list's order, ties of one millisecond included, creates with and without references mixed", async () => {
  await onPostgres(async (h) => {
    const project = (await post(h, "/api/projects", { name: "paged" })).body.id;
    const created: string[] = [];
    const inProject = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const id = (await postTask(h, { title: `paged ${i}`, ...(i % 2 ? { projectId: project } : {}) })).body.id;
      created.push(id);
      if (i % 2) inProject.add(id);
    }
    const moved = created[3]!;
    assert.is((await h.json(`/api/tasks/${moved}`, { method: "PATCH", body: { notes: "moves it first" } })).status, 200);
    const all = (await taskIds(h, "")).ids;
    assert.equal(all, [moved, ...[...created].reverse().filter((id) => id !== moved)], "most recently updated first, then the latest created");
    assert.equal(await taskIds(h, "limit=5"), { ids: all.slice(0, 5), total: 12 });
    assert.equal(await taskIds(h, "offset=7"), { ids: all.slice(7), total: 12 }, "an offset alone");
    assert.equal(await taskIds(h, "limit=4&offset=8"), { ids: all.slice(8), total: 12 });
    const projectIds = all.filter((id) => inProject.has(id));
    assert.equal(await taskIds(h, `projectId=${project}&offset=2`), { ids: projectIds.slice(2), total: 6 });
    assert.equal(await taskIds(h, `projectId=${project}&status=backlog&limit=3`), { ids: projectIds.slice(0, 3), total: 6 });
    assert.equal(await taskIds(h, `projectId=${project}&status=done`), { ids: [], total: 0 });
  });
});

test("bad input answers the codes it answers on SQLite", async () => {
  await onPostgres(async (h) => {
    const task = (await postTask(h, { title: "t" })).body;
    const missing = "00000000-0000-4000-8000-000000000000";
    const code = async (res: Promise<{ status: number; body: unknown }>, status: number, expected: string, what: string) => {
      const { status: got, body } = await res;
      assert.is(got, status, `${what}: ${JSON.stringify(body)}`);
      assert.is((body as { error?: { code?: string } }).error?.code, expected, what);
      return body as { error: { details?: { path: string }[] } };
    };
    await code(postTask(h, {}), 400, "VALIDATION_FAILED", "no title");
    await code(h.json(`/api/tasks?status=nope`), 400, "VALIDATION_FAILED", "a bad filter");
    await code(h.json(`/api/tasks/${missing}`), 404, "TASK_NOT_FOUND", "an unknown task");
    await code(h.json(`/api/tasks/${missing}`, { method: "PATCH", body: { title: "x" } }), 404, "TASK_NOT_FOUND", "PATCH of an unknown task");
    await code(h.json(`/api/tasks/${missing}`, { method: "DELETE", session: true }), 404, "TASK_NOT_FOUND", "DELETE of an unknown task");
    const ref = await code(postTask(h, { title: "x", projectId: missing }), 400, "WORK_REFERENCE_NOT_FOUND", "a create naming no project");
    assert.equal(ref.error.details?.map((d) => d.path), ["projectId"]);
    await code(h.json(`/api/tasks/${task.id}`, { method: "PATCH", body: { sprintId: missing } }), 400, "WORK_REFERENCE_NOT_FOUND", "an update naming no sprint");
    const listRef = await code(post(h, "/api/sprints", { name: "s", storyIds: [missing] }), 400, "WORK_REFERENCE_NOT_FOUND", "a sprint naming no story");
    assert.equal(listRef.error.details?.map((d) => d.path), ["storyIds.0"]);
    await code(post(h, "/api/sprints", { name: "s", startDate: "2026-02-01", endDate: "2026-01-01" }), 400, "WORK_INVALID_DATES", "dates out of order in one body");
    const dated = (await post(h, "/api/sprints", { name: "s", startDate: "2026-02-01" })).body;
    await code(h.json("/api/sprints", { method: "PATCH", body: { id: dated.id, endDate: "2026-01-01" } }), 400, "WORK_INVALID_DATES", "an end before the stored start");
    await code(h.json(`/api/projects?id=${missing}`, { method: "DELETE", session: true }), 404, "PROJECT_NOT_FOUND", "DELETE of an unknown project");
    await code(h.json(`/api/tasks/${missing}/claim`, { method: "POST", body: { agentId: "odin" } }), 404, "TASK_NOT_FOUND", "a claim of an unknown task");
    assert.equal((await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body, task, "nothing refused changed the task");
  });
});

test(`claim: of ${RACERS} concurrent claims by different agents exactly one wins; the holder's retry succeeds`, async () => {
  await onPostgres(async (h) => {
    const task = (await postTask(h, { title: "contested" })).body;
    const claims = await Promise.all(
      Array.from({ length: RACERS }, (_, i) => h.json<ApiBody<"postTasksClaimById">>(`/api/tasks/${task.id}/claim`, { method: "POST", body: { agentId: `agent-${i}` } })),
    );
    const won = claims.filter((c) => c.status === 200);
    assert.is(won.length, 1, claims.map((c) => c.status).join(","));
    const winner = won[0]!.body.assignedTo!;
    for (const lost of claims.filter((c) => c.status !== 200)) {
      assert.is(lost.status, 409);
      assert.is((lost.body as { error?: { code?: string } }).error?.code, "TASK_NOT_CLAIMABLE");
    }
    const stored = (await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body;
    assert.is(stored.assignedTo, winner);
    assert.is(stored.status, "in_progress");
    const again = await h.json<ApiBody<"postTasksClaimById">>(`/api/tasks/${task.id}/claim`, { method: "POST", body: { agentId: winner } });
    assert.is(again.status, 200, "the holder's retried claim is safe");
  });
});

test("collections and deletes: references cleared with the delete, each cleared record's update published; a failed clearing leaves everything as it was", async (): Promise<void> => {
  await onPostgres(async (h, url) => {
    const epic = (await post(h, "/api/epics", { title: "E" })).body;
    const story = (await post(h, "/api/stories", { title: "S", epicId: epic.id })).body;
    const keep = (await post(h, "/api/stories", { title: "K" })).body;
    const sprint = (await post(h, "/api/sprints", { name: "Sprint", storyIds: [story.id, keep.id] })).body;
    const project = (await post(h, "/api/projects", { name: "P" })).body;
    const task = (await postTask(h, { title: "T", storyId: story.id, sprintId: sprint.id, projectId: project.id })).body;
    for (const [path, id] of [["/api/epics", epic.id], ["/api/stories", story.id], ["/api/sprints", sprint.id], ["/api/projects", project.id]] as const) {
      assert.ok((await h.json<{ id: string }[]>(path)).body.some((r) => r.id === id), `${path} lists it`);
    }
    const renamed = await h.json<{ name: string }>("/api/projects", { method: "PATCH", body: { id: project.id, name: "P2" } });
    assert.is(renamed.status, 200, JSON.stringify(renamed.body));
    assert.is(renamed.body.name, "P2");

    // A trigger that fails the clearing of sprints' story lists: the story's delete must roll back whole.
    const pg = new Client({ connectionString: url });
    await pg.connect();
    try {
      await pg.query(`CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql`);
      await pg.query(`CREATE TRIGGER refuse_sprint_updates BEFORE UPDATE ON work_sprints FOR EACH ROW EXECUTE FUNCTION refuse()`);
      const failed = await h.json(`/api/stories?id=${story.id}`, { method: "DELETE", session: true });
      assert.ok(failed.status >= 500, `the delete fails: ${failed.status} ${JSON.stringify(failed.body)}`);
      assert.is((await h.json<{ id: string }[]>("/api/stories")).body.filter((s) => s.id === story.id).length, 1, "the story is still there");
      assert.is((await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body.storyId, story.id, "the task's reference was not cleared");
      await pg.query(`DROP TRIGGER refuse_sprint_updates ON work_sprints`);
    } finally {
      await pg.end();
    }

    const deleted = await h.json(`/api/stories?id=${story.id}`, { method: "DELETE", session: true });
    assert.is(deleted.status, 200, JSON.stringify(deleted.body));
    await recorder.waitFor("work.story.deleted", (e) => (e.payload as { id: string }).id === story.id);
    await recorder.waitFor("work.sprint.updated", (e) => (e.payload as { id: string; storyIds: string }).id === sprint.id && !(e.payload as { storyIds: string }).storyIds.includes(story.id));
    await recorder.waitFor("work.task.updated", (e) => (e.payload as { id: string; storyId: string | null }).id === task.id && (e.payload as { storyId: string | null }).storyId === null);
    const sprintNow = (await h.json<{ id: string; storyIds: string }[]>("/api/sprints")).body.find((s) => s.id === sprint.id)!;
    assert.equal(JSON.parse(sprintNow.storyIds), [keep.id], "the deleted story left the sprint's list, the other stayed");
    assert.is((await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body.storyId, null);

    assert.is((await h.json(`/api/projects?id=${project.id}`, { method: "DELETE", session: true })).status, 200);
    assert.is((await h.json(`/api/sprints?id=${sprint.id}`, { method: "DELETE", session: true })).status, 200);
    const after = (await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body;
    assert.equal([after.projectId, after.sprintId], [null, null]);
    assert.is((await h.json(`/api/tasks/${task.id}`, { method: "DELETE", session: true })).status, 200);
    assert.is((await h.json(`/api/tasks/${task.id}`)).status, 404);
  });
});

test("tasks created while their project is deleted never keep a reference to the deleted project", async () => {
  await onPostgres(async (h) => {
    for (let round = 0; round < 5; round++) {
      const project = (await post(h, "/api/projects", { name: `P${round}` })).body;
      const create = () => postTask(h, { title: "t", projectId: project.id });
      const creates = Array.from({ length: 10 }, create);
      const deleted = h.json(`/api/projects?id=${project.id}`, { method: "DELETE", session: true });
      creates.push(...Array.from({ length: 10 }, create));
      assert.is((await deleted).status, 200);
      for (const created of await Promise.all(creates)) {
        if (created.status !== 201) {
          assert.is((created.body as { error?: { code?: string } }).error?.code, "WORK_REFERENCE_NOT_FOUND");
          continue;
        }
        const task = (await h.json<ApiBody<"getTasksById">>(`/api/tasks/${created.body.id}`)).body;
        assert.is(task.projectId, null, `round ${round}: task ${task.id} refers to deleted project ${project.id}`);
      }
    }
  });
});

t.run();
