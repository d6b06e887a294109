// Usage (DESIGN §14.7): cost events priced with the one price table, the summary from
// aggregates (UTC day or ?tz=), token-count bounds, and daily budgets at their boundaries.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { notificationsPlugin } from "../../../plugins/notifications/index.ts";
import { usagePlugin } from "../../../plugins/usage/index.ts";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const test = suite("usage");
let h: TestHost;

// claude-haiku-4 costs $1/M input tokens (the default table): 10,000 input tokens = 1 cent.
const cost = (cents: number) => cents * 10_000;
const post = (body: Record<string, unknown>) => h.json<ApiBody<"postUsage">>("/api/usage", { method: "POST", body });

test.before(async () => {
  h = await startTestHost({ plugins: [activitiesPlugin, notificationsPlugin, usagePlugin], config: { pluginConfig: { usage: { budgets: { capped: 100, zero: 0 } } } } });
});
test.after(async () => {
  await h.stop();
  removeHome(h.home);
});

test("POST prices with the table: longest prefix, provider/ stripped; unknown model → 0 and priced false", async () => {
  const a = await post({ agentId: "pricer", model: "anthropic/claude-opus-4-6", action: "task", inputTokens: 1_000_000, outputTokens: 1_000_000, taskId: "t1" });
  assert.is(a.status, 201);
  assert.is(a.body.event.estimatedCostCents, 9000);
  assert.is(a.body.event.priced, true);
  assert.is(a.body.event.taskId, "t1");
  const b = await post({ agentId: "pricer", model: "mystery-model", action: "api_call", inputTokens: 500 });
  assert.is(b.status, 201);
  assert.is(b.body.event.estimatedCostCents, 0);
  assert.is(b.body.event.priced, false);
  assert.is(b.body.event.outputTokens, 0);
  assert.is(b.body.event.taskId, null);
});

test("bad inputs: negative, fractional, huge token counts, bad action, missing fields, unknown tz → 400 and nothing recorded", async () => {
  const before = (await h.json<ApiBody<"getUsage">>("/api/usage")).body.allTime.totalEvents;
  for (const [body, code] of [
    [{ agentId: "x", model: "m", action: "task", inputTokens: -1 }, "USAGE_TOKENS_OUT_OF_RANGE"],
    [{ agentId: "x", model: "m", action: "task", outputTokens: 1.5 }, "USAGE_TOKENS_OUT_OF_RANGE"],
    [{ agentId: "x", model: "m", action: "task", inputTokens: 100_000_001 }, "USAGE_TOKENS_OUT_OF_RANGE"],
    [{ agentId: "x", model: "m", action: "task", inputTokens: 1e300 }, "USAGE_TOKENS_OUT_OF_RANGE"],
    [{ agentId: "x", model: "m", action: "task", inputTokens: "5" }, "VALIDATION_FAILED"],
    [{ agentId: "x", model: "m", action: "deploy" }, "VALIDATION_FAILED"],
    [{ agentId: "../x", model: "m", action: "task" }, "VALIDATION_FAILED"],
    [{ model: "m", action: "task" }, "VALIDATION_FAILED"],
    [{ agentId: "x", model: "", action: "task" }, "VALIDATION_FAILED"],
    [{ agentId: "x", model: "m", action: "task", timestamp: "2999-01-01T00:00:00Z" }, "VALIDATION_FAILED"],
  ] as const) {
    const r = await post(body);
    assert.is(r.status, 400, JSON.stringify(body));
    assert.is(r.body.error?.code, code, JSON.stringify(body));
  }
  const tz = await h.json<ApiBody<"getUsage">>("/api/usage?tz=Mars/Olympus");
  assert.is(tz.status, 400);
  assert.is(tz.body.error?.code, "USAGE_UNKNOWN_TIME_ZONE");
  assert.is((await h.json<ApiBody<"getUsage">>("/api/usage")).body.allTime.totalEvents, before);
});

test("summary: today is the UTC day (yesterday's events only in allTime); ?tz= moves the day", async () => {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  await post({ agentId: "summ", model: "claude-haiku-4-5", action: "session", inputTokens: cost(6), outputTokens: 7 });
  await post({ agentId: "summ", model: "claude-haiku-4-5", action: "session", inputTokens: cost(30), timestamp: yesterday });
  const s = await h.json<ApiBody<"getUsage">>("/api/usage");
  assert.is(s.status, 200);
  assert.is(s.body.today.date, new Date().toISOString().slice(0, 10));
  assert.equal(s.body.today.byAgent.summ, { input: cost(6), output: 7, cost: 6 });
  assert.ok(s.body.allTime.totalEvents >= 4);
  const sum = Object.values(s.body.today.byAgent as Record<string, { cost: number }>).reduce((n, a) => n + a.cost, 0);
  assert.is(s.body.today.estimatedCostCents, sum);
  const far = await h.json<ApiBody<"getUsage">>("/api/usage?tz=Pacific/Kiritimati"); // UTC+14: its day differs from UTC's for 14 h
  assert.is(far.status, 200);
  assert.is(far.body.today.timeZone, "Pacific/Kiritimati");
});

test("the summary is kept between reads and follows each recorded event at once (one of yesterday moves only allTime)", async () => {
  const read = async () => {
    const r = await h.json<ApiBody<"getUsage">>("/api/usage");
    assert.is(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const before = await read();
  assert.equal(await read(), before, "read again unchanged");
  assert.is(before.today.byAgent.kept, undefined);
  await post({ agentId: "kept", model: "claude-haiku-4-5", action: "session", inputTokens: cost(2) });
  const after = await read();
  assert.equal(after.today.byAgent.kept, { input: cost(2), output: 0, cost: 2 });
  assert.is(after.today.estimatedCostCents, before.today.estimatedCostCents + 2);
  assert.is(after.allTime.totalEvents, before.allTime.totalEvents + 1);
  await post({ agentId: "kept", model: "claude-haiku-4-5", action: "session", inputTokens: cost(5), timestamp: new Date(Date.now() - 86_400_000).toISOString() });
  const later = await read();
  assert.equal(later.today, after.today);
  assert.equal(later.allTime, { totalEvents: after.allTime.totalEvents + 1, estimatedCostCents: after.allTime.estimatedCostCents + 5 });
  // Concurrent reads share one answer; a read of another zone has its own.
  for (const body of await Promise.all(Array.from({ length: 10 }, read))) assert.equal(body, later);
  const zoned = await h.json<ApiBody<"getUsage">>("/api/usage?tz=Pacific/Kiritimati");
  assert.is(zoned.body.today.timeZone, "Pacific/Kiritimati");
  assert.equal(zoned.body.allTime, later.allTime);
});

test("budget: 79% runs; exactly 80% notifies once; exactly 100% refuses with 409 BUDGET_EXCEEDED; a raise lifts it", async () => {
  const status = () => h.json<ApiBody<"getUsageBudgetsByAgentId">>("/api/usage/budgets/capped");
  const notes = async () =>
    ((await h.json<ApiBody<"getNotifications">>("/api/notifications?limit=100")).body.notifications as Array<{ type: string; agentId: string; title: string }>).filter((n) => n.type === "budget" && n.agentId === "capped");
  await post({ agentId: "capped", model: "claude-haiku-4-5", action: "task", inputTokens: cost(79) });
  assert.is((await status()).body.budget.exceeded, false);
  assert.is((await notes()).length, 0);
  await post({ agentId: "capped", model: "claude-haiku-4-5", action: "task", inputTokens: cost(1) });
  assert.is((await notes()).length, 1, "80% exactly warns");
  await post({ agentId: "capped", model: "claude-haiku-4-5", action: "task", inputTokens: cost(19) });
  assert.is((await notes()).length, 1, "the warning is sent once a day");
  assert.is((await status()).body.budget.exceeded, false, "99% still runs");
  await post({ agentId: "capped", model: "claude-haiku-4-5", action: "task", inputTokens: cost(1) });
  const s = await status();
  assert.equal(s.body.budget, { agentId: "capped", spentCents: 100, budgetCents: 100, exceeded: true });
  assert.is((await notes()).length, 2, "100% notifies");
  // A raise needs the session token and lifts the refusal at once.
  const noSession = await h.json<ApiBody<"putUsageBudgetsByAgentId">>("/api/usage/budgets/capped", { method: "PUT", body: { dailyCents: 200 } });
  assert.is(noSession.status, 401);
  const bad = await h.json<ApiBody<"putUsageBudgetsByAgentId">>("/api/usage/budgets/capped", { method: "PUT", session: true, body: { dailyCents: -1 } });
  assert.is(bad.status, 400);
  const raised = await h.json<ApiBody<"putUsageBudgetsByAgentId">>("/api/usage/budgets/capped", { method: "PUT", session: true, body: { dailyCents: 200 } });
  assert.is(raised.status, 200);
  assert.is(raised.body.budget.exceeded, false);
});

test("budget: yesterday's spending does not count today (day rollover by event timestamps); a zero budget is always exceeded", async () => {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  await h.json<ApiBody<"putUsageBudgetsByAgentId">>("/api/usage/budgets/roll", { method: "PUT", session: true, body: { dailyCents: 10 } });
  await post({ agentId: "roll", model: "claude-haiku-4-5", action: "task", inputTokens: cost(50), timestamp: yesterday });
  assert.equal((await h.json<ApiBody<"getUsageBudgetsByAgentId">>("/api/usage/budgets/roll")).body.budget, { agentId: "roll", spentCents: 0, budgetCents: 10, exceeded: false });
  assert.is((await h.json<ApiBody<"getUsageBudgetsByAgentId">>("/api/usage/budgets/zero")).body.budget.exceeded, true);
  assert.is((await h.json<ApiBody<"getUsageBudgetsByAgentId">>("/api/usage/budgets/nobody")).body.budget.budgetCents, null);
});

test.run();
