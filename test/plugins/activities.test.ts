import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost }>("activities");

t.before(async (ctx) => {
  ctx.h = await startTestHost();
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("POST creates (201, bare record) and GET lists newest first", async ({ h }) => {
  const first = await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "odin", action: "task_started", target: "t1" } });
  assert.is(first.status, 201);
  assert.is(first.body.agentId, "odin");
  assert.is(first.body.details, null);
  assert.match(first.body.id, /^[0-9a-f-]{36}$/);
  await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "thor", action: "task_completed", details: "done" } });
  const list = await h.json<ApiBody<"getActivities">>("/api/activities");
  assert.is(list.status, 200);
  assert.is(list.body.length, 2);
  assert.is(list.body[0]?.agentId, "thor");
  assert.is(list.body[1]?.id, first.body.id);
});

t("filters by agentId, action and since; limit caps the list", async ({ h }) => {
  for (let i = 0; i < 5; i++) await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "loki", action: "file_updated" } });
  const byAgent = await h.json<ApiBody<"getActivities">>("/api/activities?agentId=loki");
  assert.is(byAgent.body.length, 5);
  assert.ok(byAgent.body.every((a) => a.agentId === "loki"));
  const byAction = await h.json<ApiBody<"getActivities">>("/api/activities?action=task_completed");
  assert.is(byAction.body.length, 1);
  const limited = await h.json<ApiBody<"getActivities">>("/api/activities?limit=2");
  assert.is(limited.body.length, 2);
  const future = await h.json<ApiBody<"getActivities">>(`/api/activities?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
  assert.is(future.body.length, 0);
});

t("bad input is refused with 400 and stores nothing", async ({ h }) => {
  const before = (await h.json<ApiBody<"getActivities">>("/api/activities?limit=1000")).body.length;
  const cases: [unknown, string][] = [
    [{}, "missing fields"],
    [{ agentId: 42, action: "x" }, "wrong type"],
    [{ agentId: "a", action: "x", extra: 1 }, "unknown field"],
    [{ agentId: "a", action: "x", id: "mine" }, "read-only field"],
    [{ agentId: "", action: "x" }, "empty"],
    [[], "array body"],
    [null, "null body"],
  ];
  for (const [body, label] of cases) {
    const res = await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    assert.is(res.status, 400, label);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", label);
    assert.ok(Array.isArray(res.body.error?.details), label);
  }
  const malformed = await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: "{\"agentId\":", headers: { "content-type": "application/json" } });
  assert.is(malformed.status, 400);
  assert.is(malformed.body.error?.code, "INVALID_JSON");
  const textPlain = await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: "agentId=a", headers: { "content-type": "text/plain" } });
  assert.is(textPlain.status, 415);
  for (const q of ["limit=0", "limit=1001", "limit=abc", "since=yesterday", "bogus=1"]) {
    const res = await h.json<ApiBody<"getActivities">>(`/api/activities?${q}`);
    assert.is(res.status, 400, q);
  }
  assert.is((await h.json<ApiBody<"getActivities">>("/api/activities?limit=1000")).body.length, before);
});

t("activities survive a restart", async (ctx) => {
  const count = (await ctx.h.json<ApiBody<"getActivities">>("/api/activities?limit=1000")).body.length;
  ctx.h = await ctx.h.restart();
  assert.is((await ctx.h.json<ApiBody<"getActivities">>("/api/activities?limit=1000")).body.length, count);
});

t.run();
