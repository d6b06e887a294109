import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost; outside: string }>("legacy-board: sync and update");

const TASKS = `# Sprint 12 board — keep this comment
- id: TASK-1
  title: Write the parser   # inline comment
  status: backlog
  priority: high
  assigned_to: freya
  story: STORY-1
  acceptance_criteria:
    - parses all four files
- id: TASK-2
  title: "Quoted: title"
  status: in_progress
  notes: |
    multi-line
    notes stay literal
- task:
    id: TASK-3
    title: Template-wrapped item
`;
const write = (h: TestHost, rel: string, content: string | Uint8Array) => {
  const abs = join(h.workspace, rel);
  mkdirSync(join(abs, ".."), { recursive: true });
  writeFileSync(abs, content);
};
const board = (p: string) => `projects/${p}/board`;

t.before(async (ctx) => {
  ctx.h = await startTestHost({ config: { scaffoldWorkspace: false } });
  ctx.outside = mkdtempSync(join(tmpdir(), "muster-outside-"));
  const h = ctx.h;
  write(h, `${board("demo")}/tasks.yaml`, TASKS);
  write(h, `${board("demo")}/stories.yaml`, "- {id: STORY-1, epic_id: EPIC-1, title: Parser, points: 3}\n- {id: STORY-2, epic: EPIC-1, title: Writer, points: lots}\n");
  write(h, `${board("demo")}/sprints.yaml`, "- id: SPRINT-1\n  name: Sprint 1\n  start: 2026-11-01\n  end: 2026-11-14\n  stories: [STORY-1]\n");
  write(h, `${board("demo")}/epics.yaml`, "- id: EPIC-1\n  title: Legacy board\n  created_by: claw\n");
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
  rmSync(ctx.outside, { recursive: true, force: true });
});

t("sync reads the four files with the reference defaults, camelCase fields and counts", async ({ h }) => {
  const res = await h.json<ApiBody<"getBoardSync">>("/api/board/sync?project=demo");
  assert.is(res.status, 200);
  assert.is(res.body.ok, true);
  assert.is(res.body.project, "demo");
  assert.is(res.body.source, "yaml");
  assert.equal(res.body.counts, { epics: 1, stories: 2, sprints: 1, tasks: 3, tasksByStatus: { backlog: 2, in_progress: 1 } });
  const [t1, t2, t3] = res.body.tasks;
  assert.ok(t1 && t2 && t3, "three tasks");
  assert.is(t1.id, "TASK-1");
  assert.is(t1.assignedTo, "freya");
  assert.is(t1.story, "STORY-1");
  assert.equal(t1.extra, { acceptance_criteria: ["parses all four files"] });
  assert.is(t2.priority, "medium", "default priority");
  assert.is(t2.notes, "multi-line\nnotes stay literal\n");
  assert.is(t3.id, "TASK-3");
  assert.is(t3.status, "backlog", "default status");
  assert.is(res.body.stories[0]?.epic, "EPIC-1");
  assert.is(res.body.stories[1]?.points, null);
  assert.ok(res.body.warnings.some((w: string) => w.includes("stories.yaml[1].points")));
  assert.equal(res.body.sprints[0], { id: "SPRINT-1", name: "Sprint 1", status: "planning", start: "2026-11-01", end: "2026-11-14", stories: ["STORY-1"], extra: {} });
  assert.is(res.body.epics[0]?.status, "active");
  assert.is(res.body.epics[0]?.createdBy, "claw");
});

t("a project with no board: 404; missing files: empty lists", async ({ h }) => {
  const res = await h.json<ApiBody<"getBoardSync">>("/api/board/sync?project=ghost");
  assert.is(res.status, 404);
  assert.is(res.body.error?.code, "LEGACY_BOARD_PROJECT_NOT_FOUND");
  mkdirSync(join(h.workspace, board("empty")), { recursive: true });
  const empty = await h.json<ApiBody<"getBoardSync">>("/api/board/sync?project=empty");
  assert.is(empty.status, 200);
  assert.equal(empty.body.counts, { epics: 0, stories: 0, sprints: 0, tasks: 0, tasksByStatus: {} });
  assert.equal(empty.body.warnings, []);
});

t("malformed, binary, huge and non-list files are warnings; the other files still read", async ({ h }) => {
  write(h, `${board("bad")}/tasks.yaml`, "- id: T1\n  title: [unclosed\n");
  write(h, `${board("bad")}/stories.yaml`, Buffer.from([0x00, 0x01, 0xff]));
  write(h, `${board("bad")}/sprints.yaml`, "sprint:\n  id: S1\n");
  write(h, `${board("bad")}/epics.yaml`, "- id: E1\n  title: fine\n- just a string\n");
  const res = await h.json<ApiBody<"getBoardSync">>("/api/board/sync?project=bad");
  assert.is(res.status, 200);
  assert.is(res.body.counts.epics, 1);
  assert.is(res.body.counts.tasks, 0);
  const w = res.body.warnings.join("\n");
  assert.match(w, /tasks\.yaml: .*line \d+, column \d+/);
  assert.match(w, /stories\.yaml: .*binary/);
  assert.match(w, /sprints\.yaml: expected a top-level list/);
  assert.match(w, /epics\.yaml\[1\]: expected a mapping/);
  write(h, `${board("bad")}/tasks.yaml`, `- id: T1\n  title: "${"x".repeat(4 * 1024 * 1024)}"\n`);
  write(h, `${board("bad")}/stories.yaml`, "- &a {id: S, self: *a}\n");
  const huge = await h.json<ApiBody<"getBoardSync">>("/api/board/sync?project=bad");
  assert.is(huge.status, 200);
  assert.match(huge.body.warnings.join("\n"), /tasks\.yaml: .*larger than/);
});

t("path traversal in project is refused (400); symlinks out of the workspace are never read", async ({ h, outside }) => {
  for (const p of ["..", "../..", "%2e%2e", "..%2F..%2Fetc", "%2Fetc", "/etc", "a/b", "demo%00", ".hidden", "a.b", "x".repeat(65), ""]) {
    const res = await h.json<ApiBody<"getBoardSync">>(`/api/board/sync?project=${p}`);
    assert.is(res.status, 400, p);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", p);
  }
  mkdirSync(join(outside, "board"));
  writeFileSync(join(outside, "board/tasks.yaml"), "- {id: SECRET, title: TOP SECRET}\n");
  mkdirSync(join(h.workspace, "projects/escape"), { recursive: true });
  symlinkSync(join(outside, "board"), join(h.workspace, "projects/escape/board"));
  const res = await h.json<ApiBody<"getBoardSync">>("/api/board/sync?project=escape");
  assert.is(res.status, 400);
  assert.is(res.body.error?.code, "PATH_OUTSIDE_WORKSPACE");
  assert.not.ok(JSON.stringify(res.body).includes("TOP SECRET"));
  mkdirSync(join(h.workspace, board("linkfile")), { recursive: true });
  symlinkSync(join(outside, "board/tasks.yaml"), join(h.workspace, board("linkfile"), "tasks.yaml"));
  const file = await h.json<ApiBody<"getBoardSync">>("/api/board/sync?project=linkfile");
  assert.is(file.status, 200);
  assert.is(file.body.counts.tasks, 0);
  assert.not.ok(JSON.stringify(file.body).includes("TOP SECRET"));
  const patch = await h.json<ApiBody<"patchBoardUpdate">>("/api/board/update", { method: "PATCH", body: { project: "linkfile", taskId: "SECRET", status: "done" } });
  assert.is(patch.status, 400);
  assert.is(readFileSync(join(outside, "board/tasks.yaml"), "utf8"), "- {id: SECRET, title: TOP SECRET}\n");
});

t("update sets status, updated_by and updated_at; keeps comments, other items and fields; atomic", async ({ h }) => {
  const path = join(h.workspace, board("demo"), "tasks.yaml");
  chmodSync(path, 0o640);
  const before = Date.now();
  const res = await h.json<ApiBody<"patchBoardUpdate">>("/api/board/update", { method: "PATCH", body: { project: "demo", taskId: "TASK-1", status: "done", agentId: "freya" } });
  assert.is(res.status, 200);
  assert.is(res.body.ok, true);
  assert.is(res.body.task.id, "TASK-1");
  assert.is(res.body.task.status, "done");
  assert.is(res.body.task.updatedBy, "freya");
  assert.ok(Date.parse(String(res.body.task.updatedAt)) >= before - 1000);
  const text = readFileSync(path, "utf8");
  assert.ok(text.startsWith("# Sprint 12 board — keep this comment\n"));
  assert.ok(text.includes("title: Write the parser # inline comment") || text.includes("title: Write the parser   # inline comment"));
  const items = parse(text);
  assert.equal(items[0], {
    id: "TASK-1", title: "Write the parser", status: "done", priority: "high", assigned_to: "freya", story: "STORY-1",
    acceptance_criteria: ["parses all four files"], updated_by: "freya", updated_at: res.body.task.updatedAt,
  });
  assert.equal(items[1], { id: "TASK-2", title: "Quoted: title", status: "in_progress", notes: "multi-line\nnotes stay literal\n" });
  assert.equal(items[2], { task: { id: "TASK-3", title: "Template-wrapped item" } });
  assert.is(statSync(path).mode & 0o777, 0o640, "file mode kept");
  assert.equal(readdirSync(join(h.workspace, board("demo"))).filter((f) => f.includes(".tmp")), []);

  const wrapped = await h.json<ApiBody<"patchBoardUpdate">>("/api/board/update", { method: "PATCH", body: { project: "demo", taskId: "TASK-3", status: "review" }, headers: { "x-agent-id": "odin" } });
  assert.is(wrapped.status, 200);
  assert.is(wrapped.body.task.updatedBy, "odin");
  assert.is(parse(readFileSync(path, "utf8"))[2].task.status, "review");
});

t("concurrent updates of different tasks are all kept", async ({ h }) => {
  const statuses = ["blocked", "review", "todo", "doing", "done", "backlog"];
  await Promise.all(statuses.map((status, i) => h.json<ApiBody<"patchBoardUpdate">>("/api/board/update", { method: "PATCH", body: { project: "demo", taskId: i % 2 ? "TASK-1" : "TASK-2", status } })));
  const items = parse(readFileSync(join(h.workspace, board("demo"), "tasks.yaml"), "utf8"));
  assert.is(items.length, 3);
  assert.is(items[0]?.status, "backlog");
  assert.is(items[1]?.status, "done");
  assert.equal(readdirSync(join(h.workspace, board("demo"))).filter((f) => f.includes(".tmp")), []);
});

t("update errors: unknown task or project 404, malformed file 422, bad bodies 400; the file is unchanged", async ({ h }) => {
  const path = join(h.workspace, board("demo"), "tasks.yaml");
  const original = readFileSync(path, "utf8");
  const missing = await h.json<ApiBody<"patchBoardUpdate">>("/api/board/update", { method: "PATCH", body: { project: "demo", taskId: "TASK-404", status: "done" } });
  assert.is(missing.status, 404);
  assert.is(missing.body.error?.code, "LEGACY_BOARD_TASK_NOT_FOUND");
  const ghost = await h.json<ApiBody<"patchBoardUpdate">>("/api/board/update", { method: "PATCH", body: { project: "ghost", taskId: "TASK-1", status: "done" } });
  assert.is(ghost.status, 404);
  assert.is(ghost.body.error?.code, "LEGACY_BOARD_PROJECT_NOT_FOUND");
  const noFile = await h.json<ApiBody<"patchBoardUpdate">>("/api/board/update", { method: "PATCH", body: { project: "empty", taskId: "TASK-1", status: "done" } });
  assert.is(noFile.status, 404);
  const bodies: [unknown, string][] = [
    [{ project: "demo", taskId: "TASK-1", status: "approved" }, "unknown status"],
    [{ project: "../demo", taskId: "TASK-1", status: "done" }, "project traversal"],
    [{ project: "demo", taskId: "../x", status: "done" }, "task traversal"],
    [{ project: "demo", taskId: "TASK-1" }, "missing status"],
    [{ project: "demo", taskId: "TASK-1", status: "done", updated_by: "me" }, "unknown field"],
    [{ project: "demo", taskId: "TASK-1", status: "done", agentId: "a b" }, "bad agent"],
  ];
  for (const [body, label] of bodies) {
    const res = await h.json<ApiBody<"patchBoardUpdate">>("/api/board/update", { method: "PATCH", body });
    assert.is(res.status, 400, label);
  }
  assert.is(readFileSync(path, "utf8"), original);

  const badPath = join(h.workspace, board("bad"), "tasks.yaml");
  writeFileSync(badPath, "- id: T1\n  title: [unclosed\n");
  const malformed = await h.json<ApiBody<"patchBoardUpdate">>("/api/board/update", { method: "PATCH", body: { project: "bad", taskId: "T1", status: "done" } });
  assert.is(malformed.status, 422);
  assert.is(malformed.body.error?.code, "LEGACY_BOARD_FILE_INVALID");
  assert.type((malformed.body.error?.details as Record<string, unknown> | undefined)?.line, "number");
  assert.is(readFileSync(badPath, "utf8"), "- id: T1\n  title: [unclosed\n");
  writeFileSync(badPath, "tasks:\n  - id: T1\n");
  const notList = await h.json<ApiBody<"patchBoardUpdate">>("/api/board/update", { method: "PATCH", body: { project: "bad", taskId: "T1", status: "done" } });
  assert.is(notList.status, 422);
  assert.is(readFileSync(badPath, "utf8"), "tasks:\n  - id: T1\n");
});

t("the OpenAPI document labels the board routes legacy", async ({ h }) => {
  const res = await h.json("/api/openapi.json");
  for (const [path, method] of [["/api/board/sync", "get"], ["/api/board/update", "patch"], ["/api/board/import", "post"]] as const) {
    const op = res.body.paths[path]?.[method];
    assert.ok(op?.tags.includes("legacy"), path);
    assert.is(op?.deprecated, true, path);
  }
});

t.run();
