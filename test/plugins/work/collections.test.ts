import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost }>("work: sprints, epics, stories, projects");
t.before(async (ctx) => {
  ctx.h = await startTestHost();
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const create = async <const P extends string>(h: TestHost, path: P, body: unknown) => {
  const res = await h.json(path, { method: "POST", body });
  assert.is(res.status, 201, `${path} ${JSON.stringify(res.body)}`);
  return res.body;
};

t("sprints: defaults, storyIds array in, JSON string out, dates validated", async ({ h }) => {
  const s1 = await create(h, "/api/stories", { title: "Story 1" });
  const s2 = await create(h, "/api/stories", { title: "Story 2" });
  const sprint = await create(h, "/api/sprints", { name: "Sprint 1", startDate: "2026-11-01", endDate: "2026-11-14", storyIds: [s1.id, s2.id] });
  assert.is(sprint.status, "planning");
  assert.is(typeof sprint.storyIds, "string");
  assert.equal(JSON.parse(sprint.storyIds ?? "null"), [s1.id, s2.id]);
  const bare = await create(h, "/api/sprints", { name: "Sprint 0" });
  assert.is(bare.storyIds, null);
  assert.is(bare.startDate, null);
  const list = (await h.json<ApiBody<"getSprints">>("/api/sprints")).body;
  assert.ok(Array.isArray(list));
  assert.is(list[0]?.id, bare.id);
  for (const [body, label] of [
    [{ name: "x", startDate: "2026-13-01" }, "bad month"],
    [{ name: "x", startDate: "2026-02-30" }, "no such day"],
    [{ name: "x", startDate: "01/02/2026" }, "wrong format"],
    [{ name: "x", startDate: "2026-11-10", endDate: "2026-11-01" }, "end before start"],
    [{ name: "x", storyIds: "s1" }, "storyIds not array"],
    [{ name: "x", storyIds: ["missing"] }, "unknown story"],
    [{ name: "x", status: "done" }, "unknown status"],
    [{}, "missing name"],
  ] as const) {
    const res = await h.json<ApiBody<"postSprints">>("/api/sprints", { method: "POST", body });
    assert.is(res.status, 400, label);
  }
  assert.is((await h.json<ApiBody<"getSprints">>("/api/sprints")).body.length, 2);
});

t("PATCH takes the id in the body; DELETE takes it in the query", async ({ h }) => {
  const sprint = await create(h, "/api/sprints", { name: "Patch me" });
  const patched = await h.json<ApiBody<"patchSprints">>("/api/sprints", { method: "PATCH", body: { id: sprint.id, status: "active" } });
  assert.is(patched.status, 200);
  assert.is(patched.body.status, "active");
  assert.is(patched.body.name, "Patch me");
  assert.ok(patched.body.updatedAt >= sprint.updatedAt);
  const noId = await h.json<ApiBody<"patchSprints">>("/api/sprints", { method: "PATCH", body: { status: "active" } });
  assert.is(noId.status, 400);
  const onlyId = await h.json<ApiBody<"patchSprints">>("/api/sprints", { method: "PATCH", body: { id: sprint.id } });
  assert.is(onlyId.status, 400);
  const unknown = await h.json<ApiBody<"patchSprints">>("/api/sprints", { method: "PATCH", body: { id: "ghost", status: "active" } });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error?.code, "SPRINT_NOT_FOUND");
  const delNoToken = await h.json<ApiBody<"deleteSprints">>(`/api/sprints?id=${sprint.id}`, { method: "DELETE" });
  assert.is(delNoToken.status, 401);
  const delNoId = await h.json<ApiBody<"deleteSprints">>("/api/sprints", { method: "DELETE", session: true });
  assert.is(delNoId.status, 400);
  const del = await h.json<ApiBody<"deleteSprints">>(`/api/sprints?id=${sprint.id}`, { method: "DELETE", session: true });
  assert.equal(del.body, { ok: true });
  const delAgain = await h.json<ApiBody<"deleteSprints">>(`/api/sprints?id=${sprint.id}`, { method: "DELETE", session: true });
  assert.is(delAgain.status, 404);
});

t("epics and stories: defaults, completedAt follows done", async ({ h }) => {
  const epic = await create(h, "/api/epics", { title: "Epic", createdBy: "odin" });
  assert.is(epic.status, "active");
  assert.is(epic.priority, "medium");
  assert.is(epic.completedAt, null);
  const done = await h.json<ApiBody<"patchEpics">>("/api/epics", { method: "PATCH", body: { id: epic.id, status: "done" } });
  assert.ok(done.body.completedAt);
  const story = await create(h, "/api/stories", { title: "Story", epicId: epic.id, points: 3 });
  assert.is(story.status, "backlog");
  assert.is(story.epicId, epic.id);
  const storyDone = await h.json<ApiBody<"patchStories">>("/api/stories", { method: "PATCH", body: { id: story.id, status: "done" } });
  assert.ok(storyDone.body.completedAt);
  const back = await h.json<ApiBody<"patchStories">>("/api/stories", { method: "PATCH", body: { id: story.id, status: "in_progress" } });
  assert.is(back.body.completedAt, null);
  const badEpic = await h.json<ApiBody<"postStories">>("/api/stories", { method: "POST", body: { title: "x", epicId: "ghost" } });
  assert.is(badEpic.status, 400);
  assert.is((badEpic.body.error?.details as { path: string }[] | undefined)?.[0]?.path, "epicId");
  const badPoints = await h.json<ApiBody<"postStories">>("/api/stories", { method: "POST", body: { title: "x", points: -2 } });
  assert.is(badPoints.status, 400);
  const badEpicStatus = await h.json<ApiBody<"postEpics">>("/api/epics", { method: "POST", body: { title: "x", status: "whatever" } });
  assert.is(badEpicStatus.status, 400);
});

t("projects: defaults, timestamps validated and normalised", async ({ h }) => {
  const project = await create(h, "/api/projects", { name: "Muster", squad: "dev_squad", startDate: "2026-11-01T10:00:00+02:00" });
  assert.is(project.status, "active");
  assert.is(project.startDate, "2026-11-01T08:00:00.000Z");
  assert.is(project.description, null);
  for (const body of [{ name: "x", startDate: "tomorrow" }, { name: "x", squad: "Dev Squad!" }, { name: "x", status: "nope" }, { name: "" }]) {
    const res = await h.json<ApiBody<"postProjects">>("/api/projects", { method: "POST", body });
    assert.is(res.status, 400, JSON.stringify(body));
  }
  const patched = await h.json<ApiBody<"patchProjects">>("/api/projects", { method: "PATCH", body: { id: project.id, description: "server" } });
  assert.is(patched.body.description, "server");
});

t("deleting a referenced record clears every reference to it", async ({ h }) => {
  const project = await create(h, "/api/projects", { name: "P" });
  const epic = await create(h, "/api/epics", { title: "E" });
  const story = await create(h, "/api/stories", { title: "S", epicId: epic.id });
  const other = await create(h, "/api/stories", { title: "S2" });
  const sprint = await create(h, "/api/sprints", { name: "Sp", storyIds: [story.id, other.id] });
  const task = await create(h, "/api/tasks", { title: "T", projectId: project.id, storyId: story.id, sprintId: sprint.id });

  await h.json<ApiBody<"deleteStories">>(`/api/stories?id=${story.id}`, { method: "DELETE", session: true });
  let current = (await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body;
  assert.is(current.storyId, null);
  assert.is(current.sprintId, sprint.id);
  const sprintNow = (await h.json<ApiBody<"getSprints">>("/api/sprints")).body.find((s: { id: string }) => s.id === sprint.id);
  assert.ok(sprintNow);
  assert.ok(sprintNow?.storyIds);
  assert.equal(JSON.parse(sprintNow.storyIds), [other.id]);

  await h.json<ApiBody<"deleteSprints">>(`/api/sprints?id=${sprint.id}`, { method: "DELETE", session: true });
  await h.json<ApiBody<"deleteProjects">>(`/api/projects?id=${project.id}`, { method: "DELETE", session: true });
  current = (await h.json<ApiBody<"getTasksById">>(`/api/tasks/${task.id}`)).body;
  assert.is(current.sprintId, null);
  assert.is(current.projectId, null);
  assert.ok(current.updatedAt > task.updatedAt);

  const story2 = await create(h, "/api/stories", { title: "S3", epicId: epic.id });
  await h.json<ApiBody<"deleteEpics">>(`/api/epics?id=${epic.id}`, { method: "DELETE", session: true });
  const storyNow = (await h.json<ApiBody<"getStories">>("/api/stories")).body.find((s: { id: string }) => s.id === story2.id);
  assert.ok(storyNow);
  assert.is(storyNow.epicId, null);
});

t("OpenAPI lists every work route with its schemas", async ({ h }) => {
  const doc = (await h.json("/api/openapi.json")).body;
  for (const path of ["/api/tasks", "/api/tasks/{id}", "/api/sprints", "/api/epics", "/api/stories", "/api/projects", "/api/activities"]) {
    assert.ok(doc.paths[path], path);
  }
  assert.ok(doc.paths["/api/tasks"]?.post?.requestBody?.content["application/json"].schema.properties?.title);
  assert.equal(doc.paths["/api/tasks"]?.post?.requestBody?.content["application/json"].schema.required, ["title"]);
  assert.ok(doc.paths["/api/tasks/{id}"]?.delete?.security);
  assert.ok(doc.paths["/api/sprints"]?.delete?.parameters.some((p) => p.name === "id" && p.in === "query"));
});

t.run();
