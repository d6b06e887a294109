// The usage routes the console's Usage page reads: GET /api/usage/series (tokens and cost per
// day, agent and model, in a time zone's days), GET /api/usage/budgets (every budget with
// today's spend), and usage.* events reaching the live stream (as events.ts says they do).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { notificationsPlugin } from "../../../plugins/notifications/index.ts";
import { streamPlugin } from "../../../plugins/stream/index.ts";
import { usagePlugin } from "../../../plugins/usage/index.ts";
import { openSse } from "../../helpers/sse-client.ts";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const test = suite("usage series and budgets");
let h: TestHost;
const DAY_MS = 86_400_000;
const post = (body: Record<string, unknown>) => h.json<ApiBody<"postUsage">>("/api/usage", { method: "POST", body: { action: "session", ...body } });
const dayOf = (ms: number, timeZone = "UTC") => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(ms);

test.before(async () => {
  h = await startTestHost({ plugins: [activitiesPlugin, notificationsPlugin, streamPlugin, usagePlugin], config: { pluginConfig: { usage: { budgets: { configured: 500 } } } } });
  // claude-sonnet-4: $3/M input, $15/M output.
  for (const body of [
    { agentId: "writer", model: "claude-sonnet-4-6", inputTokens: 1_000_000 },
    { agentId: "writer", model: "claude-sonnet-4-6", inputTokens: 1_000_000 },
    { agentId: "writer", model: "claude-haiku-4-5", inputTokens: 100_000 },
    { agentId: "scout", model: "claude-sonnet-4-6", outputTokens: 100_000 },
    { agentId: "writer", model: "claude-sonnet-4-6", inputTokens: 2_000_000, timestamp: new Date(Date.now() - 2 * DAY_MS).toISOString() },
    { agentId: "writer", model: "claude-sonnet-4-6", inputTokens: 5_000_000, timestamp: new Date(Date.now() - 20 * DAY_MS).toISOString() },
  ]) {
    const res = await post(body);
    assert.is(res.status, 201, JSON.stringify(res.body));
  }
});
test.after(async () => {
  await h.stop();
  removeHome(h.home);
});

test("series: one point per day, agent and model over the window (today last), nothing outside it", async () => {
  const res = await h.json<ApiBody<"getUsageSeries">>("/api/usage/series?days=7");
  assert.is(res.status, 200);
  const { timeZone, dates, points } = res.body;
  assert.is(timeZone, "UTC");
  assert.is(dates.length, 7);
  assert.is(dates.at(-1), dayOf(Date.now()));
  assert.is(dates[0], dayOf(Date.now() - 6 * DAY_MS));
  const key = (p: { date: string; agentId: string; model: string }) => `${p.date} ${p.agentId} ${p.model}`;
  const byKey = new Map((points as { date: string; agentId: string; model: string; inputTokens: number; outputTokens: number; costCents: number; events: number }[]).map((p) => [key(p), p]));
  const today = dayOf(Date.now());
  assert.equal(byKey.get(`${today} writer claude-sonnet-4-6`), { date: today, agentId: "writer", model: "claude-sonnet-4-6", inputTokens: 2_000_000, outputTokens: 0, costCents: 600, events: 2 });
  assert.equal(byKey.get(`${today} scout claude-sonnet-4-6`)?.costCents, 150);
  assert.equal(byKey.get(`${today} writer claude-haiku-4-5`)?.costCents, 10);
  assert.equal(byKey.get(`${dayOf(Date.now() - 2 * DAY_MS)} writer claude-sonnet-4-6`)?.costCents, 600);
  assert.is(points.length, 4, "the event 20 days ago is outside 7 days");
  const month = await h.json<ApiBody<"getUsageSeries">>("/api/usage/series?days=30");
  assert.is(month.body.points.length, 5);
  assert.is((await h.json<ApiBody<"getUsageSeries">>("/api/usage/series")).body.dates.length, 14, "14 days by default");
});

test("series in a time zone: its days, and the same totals", async () => {
  const res = await h.json<ApiBody<"getUsageSeries">>("/api/usage/series?days=30&tz=Pacific/Kiritimati");
  assert.is(res.status, 200);
  assert.is(res.body.timeZone, "Pacific/Kiritimati");
  assert.is(res.body.dates.at(-1), dayOf(Date.now(), "Pacific/Kiritimati"));
  const total = (res.body.points as { costCents: number }[]).reduce((sum, p) => sum + p.costCents, 0);
  assert.is(total, 600 + 150 + 10 + 600 + 1500);
});

test("series refusals: days out of range or not a number → 400 VALIDATION_FAILED; unknown zone → 400 USAGE_UNKNOWN_TIME_ZONE", async () => {
  for (const query of ["days=0", "days=91", "days=two", "days=1.5", "extra=1"]) {
    const res = await h.json<ApiBody<"getUsageSeries">>(`/api/usage/series?${query}`);
    assert.is(res.status, 400, query);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", query);
  }
  const zone = await h.json<ApiBody<"getUsageSeries">>("/api/usage/series?tz=Mars/Olympus");
  assert.is(zone.status, 400);
  assert.is(zone.body.error?.code, "USAGE_UNKNOWN_TIME_ZONE");
});

test("budgets: every agent with a budget, from the configuration or set through the API, with today's spend", async () => {
  const set = await h.json<ApiBody<"putUsageBudgetsByAgentId">>("/api/usage/budgets/writer", { method: "PUT", session: true, body: { dailyCents: 500 } });
  assert.is(set.status, 200, JSON.stringify(set.body));
  const res = await h.json<ApiBody<"getUsageBudgets">>("/api/usage/budgets");
  assert.is(res.status, 200);
  assert.equal(res.body.budgets, [
    { agentId: "configured", spentCents: 0, budgetCents: 500, exceeded: false },
    { agentId: "writer", spentCents: 610, budgetCents: 500, exceeded: true },
  ]);
});

test("cost events and budget alerts reach the live stream", async () => {
  const sse = await openSse(h.url);
  try {
    const res = await post({ agentId: "streamer", model: "claude-haiku-4-5", inputTokens: 10_000 });
    const frame = await sse.next((f) => f.data?.type === "event" && f.data.name === "usage.cost.recorded" && f.data.payload.id === res.body.event.id, 10_000, "usage.cost.recorded");
    assert.is(frame.data.payload.agentId, "streamer");
    await h.json<ApiBody<"putUsageBudgetsByAgentId">>("/api/usage/budgets/streamer", { method: "PUT", session: true, body: { dailyCents: 2 } });
    await post({ agentId: "streamer", model: "claude-haiku-4-5", inputTokens: 10_000 });
    const alert = await sse.next((f) => f.data?.type === "event" && f.data.name === "usage.budget.alert", 10_000, "usage.budget.alert");
    assert.equal({ agentId: alert.data.payload.agentId, level: alert.data.payload.level }, { agentId: "streamer", level: "exceeded" });
  } finally {
    sse.close();
  }
});

test.run();
