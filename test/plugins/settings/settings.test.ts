// Settings (keys, JSON values up to 64 KiB, secret names refused) and autopilot goal/run records (DESIGN §14.7).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { notificationsPlugin } from "../../../plugins/notifications/index.ts";
import { settingsPlugin } from "../../../plugins/settings/index.ts";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const test = suite("settings");
let h: TestHost;
test.before(async () => {
  h = await startTestHost({ plugins: [activitiesPlugin, notificationsPlugin, settingsPlugin] });
});
test.after(async () => {
  await h.stop();
  removeHome(h.home);
});

const put = (key: string, body: unknown) => h.json<ApiBody<"putSettingsByKey">>(`/api/settings/${key}`, { method: "PUT", session: true, body });

test("PUT, GET one, GET all, overwrite, DELETE", async () => {
  assert.is((await put("ui.theme", { value: { dark: true, accent: "teal" } })).status, 200);
  assert.is((await put("crew.size", { value: 7 })).status, 200);
  assert.equal((await h.json<ApiBody<"getSettingsByKey">>("/api/settings/ui.theme")).body.value, { dark: true, accent: "teal" });
  await put("crew.size", { value: 8 });
  const all = await h.json<ApiBody<"getSettings">>("/api/settings");
  assert.equal(all.body.settings["crew.size"], 8);
  assert.is((await h.json<ApiBody<"deleteSettingsByKey">>("/api/settings/crew.size", { method: "DELETE", session: true })).status, 200);
  assert.is((await h.json<ApiBody<"getSettingsByKey">>("/api/settings/crew.size")).body.error?.code, "SETTING_NOT_FOUND");
  assert.is((await h.json<ApiBody<"deleteSettingsByKey">>("/api/settings/crew.size", { method: "DELETE", session: true })).body.error?.code, "SETTING_NOT_FOUND");
});

test("bad keys, secret-like names, too-large values, bad bodies → coded errors and nothing stored", async () => {
  for (const key of ["UPPER", "a%20b", "x".repeat(101), "semi;colon"]) {
    const r = await put(key, { value: 1 });
    assert.is(r.status, 400, key);
    assert.is(r.body.error?.code, "VALIDATION_FAILED", key);
  }
  for (const key of ["github_token", "smtp.password", "openai.api_key", "stripe-secret", "aws.key", "service_key", "vault.passphrase", "my.credentials"]) {
    const r = await put(key, { value: "x" });
    assert.is(r.status, 400, key);
    assert.is(r.body.error?.code, "SETTING_SECRET_NAME", key);
    assert.match(String(r.body.error?.message), /vault/);
  }
  assert.is((await put("keyboard.layout", { value: "azerty" })).status, 200, "key as part of a word is fine");
  const big = await put("big.value", { value: "x".repeat(64 * 1024) });
  assert.is(big.status, 413);
  assert.is(big.body.error?.code, "SETTING_TOO_LARGE");
  assert.is((await put("exact.size", { value: "x".repeat(64 * 1024 - 2) })).status, 200, "exactly 64 KiB of JSON is accepted");
  assert.is((await put("no.value", { other: 1 })).status, 400);
  assert.is((await h.json<ApiBody<"putSettingsByKey">>("/api/settings/raw.text", { method: "PUT", session: true, body: "{not json", headers: { "content-type": "application/json" } })).status, 400);
  const all = (await h.json<ApiBody<"getSettings">>("/api/settings")).body.settings;
  assert.not.ok("big.value" in all);
  assert.not.ok("github_token" in all);
});

test("autopilot goals: create with defaults, upsert by id, delete, validation", async () => {
  const c = await h.json<ApiBody<"postAutopilotGoals">>("/api/autopilot/goals", { method: "POST", body: { title: "Grow the newsletter" } });
  assert.is(c.status, 201);
  assert.is(c.body.goal.priority, "high");
  assert.is(c.body.goal.status, "active");
  const u = await h.json<ApiBody<"postAutopilotGoals">>("/api/autopilot/goals", { method: "POST", body: { id: c.body.goal.id, title: "Grow the newsletter", status: "paused" } });
  assert.is(u.status, 200);
  assert.is(u.body.goal.status, "paused");
  assert.is(u.body.goal.createdAt, c.body.goal.createdAt);
  assert.is((await h.json<ApiBody<"getAutopilotGoals">>("/api/autopilot/goals")).body.goals.length, 1);
  for (const body of [{ title: "" }, { title: "x", priority: "urgent!" }, { title: "x", status: "gone" }, { title: "x", extra: 1 }, { id: "../x", title: "x" }]) {
    assert.is((await h.json<ApiBody<"postAutopilotGoals">>("/api/autopilot/goals", { method: "POST", body })).body.error?.code, "VALIDATION_FAILED", JSON.stringify(body));
  }
  assert.is((await h.json<ApiBody<"deleteAutopilotGoals">>("/api/autopilot/goals?id=nope", { method: "DELETE", session: true })).body.error?.code, "AUTOPILOT_GOAL_NOT_FOUND");
  assert.is((await h.json<ApiBody<"deleteAutopilotGoals">>(`/api/autopilot/goals?id=${c.body.goal.id}`, { method: "DELETE", session: true })).status, 200);
  assert.is((await h.json<ApiBody<"getAutopilotGoals">>("/api/autopilot/goals")).body.goals.length, 0);
});

test("autopilot runs: record, move to done (notifies once), unknown goal 404, list newest first, delete", async () => {
  const goal = (await h.json<ApiBody<"postAutopilotGoals">>("/api/autopilot/goals", { method: "POST", body: { title: "Ship docs" } })).body.goal;
  const r = await h.json<ApiBody<"postAutopilotRuns">>("/api/autopilot/runs", { method: "POST", body: { goalId: goal.id, agentId: "writer", taskTitle: "Draft guide" } });
  assert.is(r.status, 201);
  assert.is(r.body.run.status, "pending");
  const done = await h.json<ApiBody<"postAutopilotRuns">>("/api/autopilot/runs", { method: "POST", body: { id: r.body.run.id, agentId: "writer", status: "done", result: "Guide drafted", feedback: "good" } });
  assert.is(done.status, 200);
  assert.is(done.body.run.status, "done");
  assert.is(done.body.run.taskTitle, "Draft guide");
  await h.json<ApiBody<"postAutopilotRuns">>("/api/autopilot/runs", { method: "POST", body: { id: r.body.run.id, agentId: "writer", status: "done", feedbackNote: "again" } });
  const notes = (await h.json<ApiBody<"getNotifications">>("/api/notifications?limit=100")).body.notifications.filter((n) => n.type === "autopilot");
  assert.is(notes.length, 1, "one notification for the one transition");
  const missing = await h.json<ApiBody<"postAutopilotRuns">>("/api/autopilot/runs", { method: "POST", body: { goalId: "nope", agentId: "writer" } });
  assert.is(missing.status, 404);
  assert.is(missing.body.error?.code, "AUTOPILOT_GOAL_NOT_FOUND");
  for (const body of [{ agentId: "writer", status: "exploded" }, { agentId: "writer", feedback: "meh" }, {}, { agentId: "../w" }]) {
    assert.is((await h.json<ApiBody<"postAutopilotRuns">>("/api/autopilot/runs", { method: "POST", body })).status, 400, JSON.stringify(body));
  }
  await h.json<ApiBody<"postAutopilotRuns">>("/api/autopilot/runs", { method: "POST", body: { agentId: "second" } });
  const list = (await h.json<ApiBody<"getAutopilotRuns">>("/api/autopilot/runs?limit=1")).body.runs;
  assert.is(list.length, 1);
  assert.is(list[0]?.agentId, "second");
  assert.is((await h.json<ApiBody<"getAutopilotRuns">>("/api/autopilot/runs?limit=0")).status, 400);
  assert.is((await h.json<ApiBody<"deleteAutopilotRuns">>(`/api/autopilot/runs?id=${r.body.run.id}`, { method: "DELETE", session: true })).status, 200);
  assert.is((await h.json<ApiBody<"deleteAutopilotRuns">>(`/api/autopilot/runs?id=${r.body.run.id}`, { method: "DELETE", session: true })).body.error?.code, "AUTOPILOT_RUN_NOT_FOUND");
});

test.run();
