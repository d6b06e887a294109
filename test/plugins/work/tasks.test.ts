import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { eventRecorder, sleep } from "../../helpers/wait.ts";
import type { ApiBody } from "@muster/plugin/testing";

const recorder = eventRecorder("work.*");
const seen = recorder.events;

const t = suite<{ h: TestHost }>("work: tasks");
t.before(async (ctx) => {
  ctx.h = await startTestHost({ extraPlugins: [recorder.plugin] });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const post = (h: TestHost, body: unknown) => h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body });

t("POST creates with the spec defaults and 201; GET by id returns it", async ({ h }) => {
  const { status, body } = await post(h, { title: "Write the README" });
  assert.is(status, 201);
  assert.match(body.id, /^[0-9a-f-]{36}$/);
  assert.equal(
    { ...body, id: undefined, createdAt: undefined, updatedAt: undefined },
    {
      id: undefined, title: "Write the README", description: null, status: "backlog", priority: "medium", assignedTo: null,
      projectId: null, storyId: null, sprintId: null, estimatedHours: null, actualHours: null, tags: null, notes: null,
      createdAt: undefined, updatedAt: undefined, completedAt: null,
    },
  );
  assert.match(body.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.is(body.updatedAt, body.createdAt);
  const one = await h.json<ApiBody<"getTasksById">>(`/api/tasks/${body.id}`);
  assert.is(one.status, 200);
  assert.equal(one.body, body);
  await recorder.waitFor("work.task.created", (e) => (e.payload as { id: string }).id === body.id);
  assert.ok(seen.some((e) => e.name === "work.task.created" && (e.payload as { id: string }).id === body.id && e.public));
});

t("every create field is stored", async ({ h }) => {
  const input = {
    title: "Ship", description: "all of it", status: "in_progress", priority: "critical", assignedTo: "thor",
    estimatedHours: 5, tags: "a,b", notes: "n", actualHours: 2,
  };
  const { status, body } = await post(h, input);
  assert.is(status, 201);
  for (const [k, v] of Object.entries(input)) assert.equal(body[k as keyof typeof body], v, k);
});

t("list is a bare array ordered by last update", async ({ h }) => {
  const a = (await post(h, { title: "A" })).body;
  const b = (await post(h, { title: "B" })).body;
  await sleep(5); // a sleep on purpose: the next write's updatedAt must differ (ms clock)
  await h.json<ApiBody<"patchTasksById">>(`/api/tasks/${a.id}`, { method: "PATCH", body: { notes: "touched" } });
  const list = (await h.json<ApiBody<"getTasks">>("/api/tasks")).body;
  assert.ok(Array.isArray(list));
  assert.is(list[0]?.id, a.id);
  assert.is(list[1]?.id, b.id);
  for (let i = 1; i < list.length; i++) assert.ok(list[i - 1]!.updatedAt >= list[i]!.updatedAt);
});

t("list filters by status, priority, assignedTo, projectId and sprintId, and pages with limit and offset", async ({ h }) => {
  const project = (await h.json<ApiBody<"postProjects">>("/api/projects", { method: "POST", body: { name: "filtered" } })).body.id as string;
  const sprint = (await h.json<ApiBody<"postSprints">>("/api/sprints", { method: "POST", body: { name: "filtered" } })).body.id as string;
  const make = async (title: string, extra: Record<string, unknown> = {}) => (await post(h, { title, projectId: project, ...extra })).body.id as string;
  const t1 = await make("t1", { status: "done", assignedTo: "freya" });
  const t2 = await make("t2", { status: "done", assignedTo: "odin", sprintId: sprint });
  const t3 = await make("t3", { status: "blocked", assignedTo: "freya", sprintId: sprint });
  const t4 = await make("t4");
  const t5 = await make("t5", { assignedTo: "freya", priority: "critical" });
  const other = (await post(h, { title: "elsewhere", status: "done", assignedTo: "freya", sprintId: sprint })).body.id as string;
  const ids = async (query: string) => {
    const res = await h.json<ApiBody<"getTasks">>(`/api/tasks?${query}`);
    assert.is(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
    assert.ok(Array.isArray(res.body), "still the bare array");
    return { ids: (res.body as { id: string }[]).map((x) => x.id), total: Number(res.headers.get("x-total-count")) };
  };

  assert.equal(await ids(`projectId=${project}`), { ids: [t5, t4, t3, t2, t1], total: 5 }, "most recently updated first");
  assert.equal(await ids(`projectId=${project}&status=done`), { ids: [t2, t1], total: 2 });
  assert.equal(await ids(`projectId=${project}&assignedTo=freya`), { ids: [t5, t3, t1], total: 3 });
  assert.equal(await ids(`sprintId=${sprint}&assignedTo=freya`), { ids: [other, t3], total: 2 });
  assert.equal(await ids(`sprintId=${sprint}&projectId=${project}&status=blocked&assignedTo=freya`), { ids: [t3], total: 1 });
  assert.equal(await ids(`projectId=${project}&assignedTo=nobody`), { ids: [], total: 0 });
  // The console's priority filter.
  assert.equal(await ids(`projectId=${project}&priority=critical`), { ids: [t5], total: 1 });
  assert.equal(await ids(`projectId=${project}&priority=medium&assignedTo=freya`), { ids: [t3, t1], total: 2 });
  assert.equal(await ids(`projectId=${project}&limit=2`), { ids: [t5, t4], total: 5 });
  assert.equal(await ids(`projectId=${project}&limit=2&offset=2`), { ids: [t3, t2], total: 5 });
  assert.equal(await ids(`projectId=${project}&limit=2&offset=4`), { ids: [t1], total: 5 });
  assert.equal(await ids(`projectId=${project}&offset=9`), { ids: [], total: 5 });
  const all = await h.json<ApiBody<"getTasks">>("/api/tasks");
  assert.is(all.body.length, Number(all.headers.get("x-total-count")), "no parameters: every task");
});

t("bad list parameters are a 400 naming the parameter", async ({ h }) => {
  const cases: [string, string][] = [
    ["status=nope", "status"],
    ["status=done&status=blocked", "status"],
    ["priority=urgent", "priority"],
    ["assignedTo=../x", "assignedTo"],
    ["projectId=", "projectId"],
    ["limit=0", "limit"],
    ["limit=1001", "limit"],
    ["limit=abc", "limit"],
    ["offset=-1", "offset"],
    ["offset=1.5", "offset"],
    ["sort=title", "sort"],
  ];
  for (const [query, param] of cases) {
    const res = await h.json<ApiBody<"getTasks">>(`/api/tasks?${query}`);
    assert.is(res.status, 400, query);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", query);
    assert.ok(JSON.stringify(res.body.error?.details).includes(param), `${query}: ${JSON.stringify(res.body.error?.details)}`);
  }
  assert.is((await h.json<ApiBody<"getTasks">>("/api/tasks?limit=1000")).status, 200, "the maximum is accepted");
});

t("without limit the list is every task, as the spec's bare array says (more than the largest page)", async ({ h }) => {
  const before = Number((await h.json<ApiBody<"getTasks">>("/api/tasks?limit=1")).headers.get("x-total-count"));
  const missing = 1_001 - before;
  for (let i = 0; i < missing; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, missing - i) }, (_, j) => post(h, { title: `Bulk ${i + j}` })));
  }
  const all = await h.json<ApiBody<"getTasks">>("/api/tasks");
  assert.is(all.status, 200);
  assert.ok(all.body.length >= 1_001, `got ${all.body.length}`);
  assert.is(all.body.length, Number(all.headers.get("x-total-count")));
  assert.is((await h.json<ApiBody<"getTasks">>("/api/tasks?limit=1000")).body.length, 1_000, "an explicit limit still pages");
});

t("PATCH changes only given fields, moves updatedAt, sets and clears completedAt", async ({ h }) => {
  const created = (await post(h, { title: "Done-able", priority: "low" })).body;
  await sleep(5); // a sleep on purpose: the next write's updatedAt must differ (ms clock)
  const done = await h.json<ApiBody<"patchTasksById">>(`/api/tasks/${created.id}`, { method: "PATCH", body: { status: "done" } });
  assert.is(done.status, 200);
  assert.is(done.body.status, "done");
  assert.is(done.body.priority, "low");
  assert.is(done.body.title, "Done-able");
  assert.ok(done.body.completedAt);
  assert.ok(done.body.updatedAt > created.updatedAt);
  const again = await h.json<ApiBody<"patchTasksById">>(`/api/tasks/${created.id}`, { method: "PATCH", body: { notes: "still done" } });
  assert.is(again.body.completedAt, done.body.completedAt);
  const reopened = await h.json<ApiBody<"patchTasksById">>(`/api/tasks/${created.id}`, { method: "PATCH", body: { status: "review" } });
  assert.is(reopened.body.completedAt, null);
  const nulled = await h.json<ApiBody<"patchTasksById">>(`/api/tasks/${created.id}`, { method: "PATCH", body: { notes: null } });
  assert.is(nulled.body.notes, null);
  const createdDone = (await post(h, { title: "born done", status: "done" })).body;
  assert.ok(createdDone.completedAt);
});

t("DELETE needs the session token, then deletes permanently", async ({ h }) => {
  const created = (await post(h, { title: "to delete" })).body;
  const noToken = await h.json<ApiBody<"deleteTasksById">>(`/api/tasks/${created.id}`, { method: "DELETE" });
  assert.is(noToken.status, 401);
  assert.is(noToken.body.error?.code, "SESSION_TOKEN_REQUIRED");
  const wrong = await h.json<ApiBody<"deleteTasksById">>(`/api/tasks/${created.id}`, { method: "DELETE", headers: { "x-session-token": "0".repeat(64) } });
  assert.is(wrong.status, 401);
  const short = await h.json<ApiBody<"deleteTasksById">>(`/api/tasks/${created.id}`, { method: "DELETE", headers: { "x-session-token": "abc" } });
  assert.is(short.status, 401);
  const inQuery = await h.json<ApiBody<"deleteTasksById">>(`/api/tasks/${created.id}?token=${h.token}`, { method: "DELETE" });
  assert.is(inQuery.status, 401);
  assert.is((await h.json<ApiBody<"getTasksById">>(`/api/tasks/${created.id}`)).status, 200);
  const ok = await h.json<ApiBody<"deleteTasksById">>(`/api/tasks/${created.id}`, { method: "DELETE", session: true });
  assert.is(ok.status, 200);
  assert.equal(ok.body, { ok: true });
  const gone = await h.json<ApiBody<"getTasksById">>(`/api/tasks/${created.id}`);
  assert.is(gone.status, 404);
  assert.is(gone.body.error?.code, "TASK_NOT_FOUND");
  const twice = await h.json<ApiBody<"deleteTasksById">>(`/api/tasks/${created.id}`, { method: "DELETE", session: true });
  assert.is(twice.status, 404);
});

t("bad create bodies are refused with 400 and store nothing", async ({ h }) => {
  const before = (await h.json<ApiBody<"getTasks">>("/api/tasks")).body.length;
  const bad: [unknown, string][] = [
    [{}, "missing title"],
    [{ title: "" }, "empty title"],
    [{ title: "   " }, "blank title"],
    [{ title: 42 }, "number title"],
    [{ title: null }, "null title"],
    [{ title: "x", status: "doing" }, "unknown status"],
    [{ title: "x", priority: "urgent" }, "unknown priority"],
    [{ title: "x", estimatedHours: 1.5 }, "non-integer hours"],
    [{ title: "x", estimatedHours: -1 }, "negative hours"],
    [{ title: "x", estimatedHours: "3" }, "string hours"],
    [{ title: "x", tags: ["a"] }, "array tags"],
    [{ title: "x", color: "red" }, "unknown field"],
    [{ title: "x", id: "mine" }, "read-only id"],
    [{ title: "x", createdAt: new Date().toISOString() }, "read-only createdAt"],
    [{ title: "x", completedAt: null }, "read-only completedAt"],
    [{ title: "x\u0000y" }, "NUL in title"],
    [{ title: "x".repeat(501) }, "title too long"],
    [[{ title: "x" }], "array body"],
    [{ __proto__: { isAdmin: true }, title: "x" }, "proto key"],
  ];
  for (const [body, label] of bad) {
    const raw = label === "proto key" ? '{"__proto__":{"isAdmin":true},"title":"x"}' : JSON.stringify(body);
    const res = await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: raw, headers: { "content-type": "application/json" } });
    assert.is(res.status, 400, label);
    assert.is(res.body.ok, false, label);
    // A "__proto__" key is refused by the body reader itself (issue 8), before validation.
    assert.is(res.body.error?.code, label === "proto key" ? "UNSAFE_JSON_KEY" : "VALIDATION_FAILED", label);
  }
  assert.is(({} as Record<string, unknown>).isAdmin, undefined);
  const readOnly = await post(h, { title: "x", updatedAt: "2020-01-01T00:00:00.000Z" });
  assert.match(JSON.stringify(readOnly.body.error?.details), /updatedAt/);
  const missing = await post(h, {});
  assert.ok((missing.body.error?.details as { path: string }[] | undefined)?.some((d) => d.path === "title"));
  const transport: [string, Record<string, string>, number, string][] = [
    ['{"title":', { "content-type": "application/json" }, 400, "INVALID_JSON"],
    ['\ufeff{"title":"bom"}', { "content-type": "application/json" }, 400, "INVALID_JSON"],
    ['{"title":"x"}', { "content-type": "text/plain" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
    ['{"title":"x"}', { "content-type": "application/x-www-form-urlencoded" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
  ];
  for (const [body, headers, status, code] of transport) {
    const res = await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body, headers });
    assert.is(res.status, status, code);
    assert.is(res.body.error?.code, code);
  }
  const invalidUtf8 = await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: new Uint8Array([0x7b, 0x22, 0x74, 0xff, 0xfe, 0x22, 0x7d]), headers: { "content-type": "application/json" } });
  assert.is(invalidUtf8.status, 400);
  const deep = "[".repeat(10_000) + "]".repeat(10_000);
  const deepRes = await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: deep, headers: { "content-type": "application/json" } });
  assert.ok(deepRes.status === 400 || deepRes.status === 413, `deep nesting answered ${deepRes.status}`);
  const huge = await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: JSON.stringify({ title: "x", notes: "y".repeat(1_100_000) }), headers: { "content-type": "application/json" } });
  assert.is(huge.status, 413);
  assert.is(huge.body.error?.code, "PAYLOAD_TOO_LARGE");
  const after = await h.json<ApiBody<"getHealth">>("/api/health");
  assert.is(after.status, 200, "connection healthy after 413");
  assert.is((await h.json<ApiBody<"getTasks">>("/api/tasks")).body.length, before);
});

t("unicode is stored and returned exactly", async ({ h }) => {
  const title = "\u202Eevil\u200B zero-width 🦀 emoji العربية";
  const { body } = await post(h, { title });
  assert.is(body.title, title);
  assert.is((await h.json<ApiBody<"getTasksById">>(`/api/tasks/${body.id}`)).body.title, title);
});

t("unknown and malformed ids", async ({ h }) => {
  for (const id of ["nope", "00000000-0000-0000-0000-000000000000"]) {
    const res = await h.json<ApiBody<"getTasksById">>(`/api/tasks/${id}`);
    assert.is(res.status, 404, id);
    assert.is(res.body.error?.code, "TASK_NOT_FOUND");
    const patch = await h.json<ApiBody<"patchTasksById">>(`/api/tasks/${id}`, { method: "PATCH", body: { title: "x" } });
    assert.is(patch.status, 404, id);
  }
  for (const id of ["%2e%2e", "..", "a%00b", "x".repeat(200), "1'%20OR%20'1'='1", "%2e%2e%2fetc%2fpasswd"]) {
    const res = await h.json<ApiBody<"getTasksById">>(`/api/tasks/${id}`);
    assert.ok(res.status === 400 || res.status === 404, `${id} -> ${res.status}`);
    assert.is(res.body.ok, false);
  }
  const traversal = await h.json("/api/tasks/../health");
  assert.ok(traversal.status !== 500);
});

t("bad PATCH bodies change nothing", async ({ h }) => {
  const created = (await post(h, { title: "stable" })).body;
  const bad: unknown[] = [{}, { status: "nope" }, { title: "" }, { id: "other" }, { updatedAt: "2020-01-01T00:00:00.000Z" }, { approvedBy: "me" }, { estimatedHours: "x" }];
  for (const body of bad) {
    const res = await h.json<ApiBody<"patchTasksById">>(`/api/tasks/${created.id}`, { method: "PATCH", body });
    assert.is(res.status, 400, JSON.stringify(body));
  }
  assert.equal((await h.json<ApiBody<"getTasksById">>(`/api/tasks/${created.id}`)).body, created);
});

t("references to sprints, stories and projects must exist", async ({ h }) => {
  for (const field of ["sprintId", "storyId", "projectId"]) {
    const res = await post(h, { title: "x", [field]: "missing-id" });
    assert.is(res.status, 400, field);
    assert.is(res.body.error?.code, "WORK_REFERENCE_NOT_FOUND");
    assert.is((res.body.error?.details as { path: string }[] | undefined)?.[0]?.path, field);
  }
  const project = (await h.json<ApiBody<"postProjects">>("/api/projects", { method: "POST", body: { name: "P" } })).body;
  const ok = await post(h, { title: "in project", projectId: project.id });
  assert.is(ok.status, 201);
  assert.is(ok.body.projectId, project.id);
  const badPatch = await h.json<ApiBody<"patchTasksById">>(`/api/tasks/${ok.body.id}`, { method: "PATCH", body: { sprintId: "ghost" } });
  assert.is(badPatch.status, 400);
  assert.is((await h.json<ApiBody<"getTasksById">>(`/api/tasks/${ok.body.id}`)).body.sprintId, null);
});

t("tasks survive a stop and start", async (ctx) => {
  const created = (await post(ctx.h, { title: "durable", priority: "high" })).body;
  ctx.h = await ctx.h.restart();
  const again = await ctx.h.json<ApiBody<"getTasksById">>(`/api/tasks/${created.id}`);
  assert.is(again.status, 200);
  assert.equal(again.body, created);
});

t.run();
