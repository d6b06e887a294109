import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost }>("legacy-board: import into the work tables");

const write = (h: TestHost, rel: string, content: string) => {
  const abs = join(h.workspace, rel);
  mkdirSync(join(abs, ".."), { recursive: true });
  writeFileSync(abs, content);
};
const B = "projects/clawhalla/board";

t.before(async (ctx) => {
  ctx.h = await startTestHost({ config: { scaffoldWorkspace: false } });
  const h = ctx.h;
  write(h, `${B}/epics.yaml`, "- {id: EPIC-1, title: Board, status: completed, priority: p1, created_by: claw}\n- {id: EPIC-2, title: Other}\n");
  write(h, `${B}/stories.yaml`, "- {id: STORY-1, epic_id: EPIC-1, title: Parser, status: doing, points: 3}\n- {id: STORY-2, epic: EPIC-404, title: Orphan}\n");
  write(h, `${B}/sprints.yaml`, "- {id: SPRINT-1, name: Sprint 1, status: active, start: 2026-11-01, end: 2026-11-14, stories: [STORY-1, STORY-404]}\n- {id: SPRINT-2, name: Bad dates, start: 2026-11-20, end: 2026-11-01}\n");
  write(h, `${B}/tasks.yaml`, [
    "- {id: TASK-1, title: Parse, status: todo, priority: urgent, assigned_to: freya, story: STORY-1, sprint: SPRINT-1}",
    "- {id: TASK-2, title: Write, status: in-progress, story: STORY-404}",
    "- {id: TASK-3, title: Odd status, status: qa-ready}",
    "- {title: No id}",
    "- {id: 'bad/id', title: Slash}",
    "- {id: TASK-4}",
    "",
  ].join("\n"));
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("imports every valid item, maps legacy values, reports what it left out", async ({ h }) => {
  const res = await h.json<ApiBody<"postBoardImport">>("/api/board/import?project=clawhalla", { method: "POST" });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.ok, true);
  assert.equal(res.body.imported, { projects: 1, epics: 2, stories: 2, sprints: 1, tasks: 3 });
  assert.equal(res.body.skipped, []);
  assert.equal(res.body.errors.map((e) => [e.kind, e.id]), [["sprint", "SPRINT-2"], ["task", null], ["task", "bad/id"], ["task", "TASK-4"]]);
  const w = res.body.warnings.join("\n");
  assert.match(w, /stories\.yaml\[1\]\.epic: epic "EPIC-404" does not exist/);
  assert.match(w, /sprints\.yaml\[0\]\.stories\[1\]/);
  assert.match(w, /tasks\.yaml\[2\]\.status: "qa-ready" is not a known value; imported as backlog/);

  const tasks = (await h.json<ApiBody<"getTasks">>("/api/tasks")).body;
  const t1 = tasks.find((t) => t.id === "TASK-1");
  assert.ok(t1, "t1 is there");
  assert.is(t1.status, "backlog");
  assert.is(t1.priority, "critical");
  assert.is(t1.projectId, "clawhalla");
  assert.is(t1.storyId, "STORY-1");
  assert.is(t1.sprintId, "SPRINT-1");
  assert.is(t1.assignedTo, "freya");
  const t2 = tasks.find((t) => t.id === "TASK-2");
  assert.ok(t2, "t2 is there");
  assert.is(t2.status, "in_progress");
  assert.is(t2.storyId, null);
  const epics = (await h.json<ApiBody<"getEpics">>("/api/epics")).body;
  const e1 = epics.find((e) => e.id === "EPIC-1");
  assert.ok(e1, "e1 is there");
  assert.is(e1.status, "done");
  assert.is(e1.priority, "high");
  assert.is(e1.createdBy, "claw");
  const sprint = (await h.json<ApiBody<"getSprints">>("/api/sprints")).body.find((s) => s.id === "SPRINT-1");
  assert.ok(sprint, "sprint is there");
  assert.is(sprint.status, "active");
  assert.is(sprint.startDate, "2026-11-01");
  assert.equal(JSON.parse(String(sprint.storyIds)), ["STORY-1"]);
  const story = (await h.json<ApiBody<"getStories">>("/api/stories")).body.find((s) => s.id === "STORY-1");
  assert.ok(story, "story is there");
  assert.is(story.status, "in_progress");
  assert.is(story.epicId, "EPIC-1");
  assert.is(story.points, 3);
  const projects = (await h.json<ApiBody<"getProjects">>("/api/projects")).body;
  assert.ok(projects.some((p) => p.id === "clawhalla"));
});

t("a second import inserts nothing and lists every duplicate as skipped", async ({ h }) => {
  const countBefore = (await h.json<ApiBody<"getTasks">>("/api/tasks")).body.length;
  const res = await h.json<ApiBody<"postBoardImport">>("/api/board/import?project=clawhalla", { method: "POST" });
  assert.is(res.status, 200);
  assert.equal(res.body.imported, { projects: 0, epics: 0, stories: 0, sprints: 0, tasks: 0 });
  assert.is(res.body.skipped.length, 1 + 2 + 2 + 1 + 3);
  assert.ok(res.body.skipped.every((s) => s.reason === "already exists"));
  assert.is((await h.json<ApiBody<"getTasks">>("/api/tasks")).body.length, countBefore);
});

t("an existing record is never overwritten by the import", async ({ h }) => {
  write(h, "projects/second/board/tasks.yaml", "- {id: TASK-1, title: Different title, status: done}\n- {id: TASK-9, title: New one}\n");
  const res = await h.json<ApiBody<"postBoardImport">>("/api/board/import?project=second", { method: "POST" });
  assert.equal(res.body.imported, { projects: 1, epics: 0, stories: 0, sprints: 0, tasks: 1 });
  assert.equal(res.body.skipped, [{ kind: "task", id: "TASK-1", reason: "already exists" }]);
  const t1 = (await h.json<ApiBody<"getTasks">>("/api/tasks")).body.find((t) => t.id === "TASK-1");
  assert.ok(t1, "t1 is there");
  assert.is(t1.title, "Parse");
  assert.is(t1.projectId, "clawhalla");
});

t("a title over its 500-character limit is cut on a code point boundary, never leaving half an emoji", async ({ h }) => {
  const title = "a".repeat(499) + "😀";
  write(h, "projects/clipped/board/tasks.yaml", `- {id: TASK-CLIP, title: "${title}"}\n`);
  const res = await h.json<ApiBody<"postBoardImport">>("/api/board/import?project=clipped", { method: "POST" });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.imported.tasks, 1);
  assert.is((await h.json<ApiBody<"getTasksById">>("/api/tasks/TASK-CLIP")).body.title, "a".repeat(499));
});

t("unknown project 404, traversal 400, malformed files imported as warnings; nothing inserted on refusal", async ({ h }) => {
  const before = (await h.json<ApiBody<"getTasks">>("/api/tasks")).body.length;
  const ghost = await h.json<ApiBody<"postBoardImport">>("/api/board/import?project=ghost", { method: "POST" });
  assert.is(ghost.status, 404);
  assert.is(ghost.body.error?.code, "LEGACY_BOARD_PROJECT_NOT_FOUND");
  for (const p of ["..", "%2e%2e", "..%2F..%2Fetc", "%2Fetc", "a.b"]) {
    const res = await h.json<ApiBody<"postBoardImport">>(`/api/board/import?project=${p}`, { method: "POST" });
    assert.is(res.status, 400, p);
  }
  const missing = await h.json<ApiBody<"postBoardImport">>("/api/board/import", { method: "POST" });
  assert.is(missing.status, 400);
  write(h, "projects/broken/board/tasks.yaml", "- id: T\n  title: [unclosed\n");
  const broken = await h.json<ApiBody<"postBoardImport">>("/api/board/import?project=broken", { method: "POST" });
  assert.is(broken.status, 200);
  assert.is(broken.body.imported.tasks, 0);
  assert.match(broken.body.warnings.join("\n"), /tasks\.yaml: .*line \d+/);
  assert.is((await h.json<ApiBody<"getTasks">>("/api/tasks")).body.length, before);
});

t.run();
