// Crons (DESIGN §14.4) through HTTP against the fake gateway: every bad input, run now,
// gateway down, skipped while running, budget refusal, fire by schedule, restart without a
// double run, and a run interrupted by a stop.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { FakeGateway } from "../../helpers/fake-gateway.ts";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { untilEveryInstance, waitUntil } from "../../helpers/wait.ts";
import { FAST, TOKEN, gate, waitForGateway } from "../chat/chat-helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const test = suite("crons http");
let gw: FakeGateway;
let h: TestHost;
let home: string;

const start = async (extra: Record<string, unknown> = {}) => {
  h = await startTestHost({ home, config: { gatewayUrl: gw.url, gatewayToken: TOKEN, gatewayTimings: FAST, pluginConfig: { usage: { budgets: { broke: 0 } }, ...extra } } });
  await waitForGateway(h, "connected");
};
const create = (body: Record<string, unknown>) => h.json<ApiBody<"postCrons">>("/api/crons", { method: "POST", body });
/** A run as listed; `run now` answers one beside the job. */
type Run = ApiBody<"getCronsRuns">["runs"][number];
const patch = (body: Record<string, unknown>) => h.json<ApiBody<"patchCrons"> & { run?: Run }>("/api/crons", { method: "PATCH", body });
const runs = async (id: string) => (await h.json<ApiBody<"getCronsRuns">>(`/api/crons/runs?id=${id}`)).body.runs;
const job = { name: "Morning report", agentId: "main", cron: "0 9 * * *", message: "Write the morning report" };

test.before(async () => {
  gw = await FakeGateway.start({ token: TOKEN, agents: [{ id: "main" }, { id: "broke" }], tickIntervalMs: 5_000 });
  home = (await import("node:fs")).mkdtempSync((await import("node:path")).join((await import("node:os")).tmpdir(), "muster-crons-"));
  await start();
});
test.after(async () => {
  await h.stop();
  await gw.stop();
  removeHome(home);
});

test("POST → 201 with defaults and a computed nextRun in the job's zone; GET lists it", async () => {
  const r = await create({ ...job, timezone: "Europe/Paris", model: "claude-sonnet-4-6" });
  assert.is(r.status, 201);
  const j = r.body.job;
  assert.is(j.enabled, true);
  assert.is(j.timezone, "Europe/Paris");
  assert.is(j.model, "claude-sonnet-4-6");
  assert.is(j.lastStatus, null);
  assert.is(j.lastRun, null);
  const local = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" }).format(new Date(j.nextRun ?? NaN));
  assert.is(local, "09:00");
  assert.ok(Date.parse(j.nextRun ?? "") > Date.now());
  const utc = await create(job);
  assert.is(utc.body.job.timezone, "UTC");
  assert.is(new Date(utc.body.job.nextRun ?? NaN).getUTCHours(), 9);
  const list = await h.json<ApiBody<"getCrons">>("/api/crons");
  assert.ok(list.body.jobs.some((x) => x.id === j.id));
});

test("bad inputs → 400/404 coded and nothing stored", async () => {
  const before = (await h.json<ApiBody<"getCrons">>("/api/crons")).body.jobs.length;
  for (const [body, status, code] of [
    [{ ...job, cron: "0 9 * * * *" }, 400, "CRON_INVALID_EXPRESSION"],
    [{ ...job, cron: "0 9 * *" }, 400, "CRON_INVALID_EXPRESSION"],
    [{ ...job, cron: "60 9 * * *" }, 400, "CRON_INVALID_EXPRESSION"],
    [{ ...job, cron: "0 24 * * *" }, 400, "CRON_INVALID_EXPRESSION"],
    [{ ...job, cron: "0 9 32 * *" }, 400, "CRON_INVALID_EXPRESSION"],
    [{ ...job, cron: "0 9 * 13 *" }, 400, "CRON_INVALID_EXPRESSION"],
    [{ ...job, cron: "0 9 * * 8" }, 400, "CRON_INVALID_EXPRESSION"],
    [{ ...job, cron: "*/0 * * * *" }, 400, "CRON_INVALID_EXPRESSION"],
    [{ ...job, cron: "every day at nine" }, 400, "CRON_INVALID_EXPRESSION"],
    [{ ...job, cron: "@daily" }, 400, "CRON_INVALID_EXPRESSION"],
    [{ ...job, timezone: "Mars/Olympus" }, 400, "CRON_UNKNOWN_TIME_ZONE"],
    [{ ...job, timezone: "../../etc/passwd" }, 400, "CRON_UNKNOWN_TIME_ZONE"],
    [{ ...job, agentId: "ghost" }, 404, "CRON_AGENT_NOT_FOUND"],
    [{ ...job, agentId: "../x" }, 400, "VALIDATION_FAILED"],
    [{ ...job, name: "" }, 400, "VALIDATION_FAILED"],
    [{ ...job, message: "x".repeat(33 * 1024) }, 400, "VALIDATION_FAILED"],
    [{ ...job, extra: 1 }, 400, "VALIDATION_FAILED"],
    [{ name: "x" }, 400, "VALIDATION_FAILED"],
  ] as const) {
    const r = await create(body);
    assert.is(r.status, status, JSON.stringify(body).slice(0, 80));
    assert.is(r.body.error?.code, code, JSON.stringify(body).slice(0, 80));
  }
  assert.is((await h.json<ApiBody<"getCrons">>("/api/crons")).body.jobs.length, before);
  const id = (await create(job)).body.job.id;
  for (const [body, status, code] of [
    [{ id: "nope", action: "enable" }, 404, "CRON_NOT_FOUND"],
    [{ id: "nope", name: "x" }, 404, "CRON_NOT_FOUND"],
    [{ id, action: "explode" }, 400, "VALIDATION_FAILED"],
    [{ id, action: "run", name: "both" }, 400, "VALIDATION_FAILED"],
    [{ id }, 400, "CRON_EDIT_EMPTY"],
    [{ id, cron: "61 * * * *" }, 400, "CRON_INVALID_EXPRESSION"],
  ] as const) {
    const r = await patch(body);
    assert.is(r.status, status, JSON.stringify(body));
    assert.is(r.body.error?.code, code, JSON.stringify(body));
  }
  assert.is((await h.json<ApiBody<"getCronsRuns">>(`/api/crons/runs?id=nope`)).body.error?.code, "CRON_NOT_FOUND");
  assert.is((await h.json<ApiBody<"deleteCrons">>(`/api/crons?id=nope`, { method: "DELETE" })).status, 401, "DELETE needs the session token");
  assert.is((await h.json<ApiBody<"deleteCrons">>(`/api/crons?id=nope`, { method: "DELETE", session: true })).body.error?.code, "CRON_NOT_FOUND");
  assert.is((await h.json<ApiBody<"getCronsRuns">>(`/api/crons/runs?limit=0`)).status, 400);
});

test("edit, disable (nextRun null), enable, delete", async () => {
  const id = (await create(job)).body.job.id;
  const edited = await patch({ id, name: "Evening", cron: "30 18 * * 1-5", message: "Evening report" });
  assert.is(edited.status, 200);
  assert.is(edited.body.job.name, "Evening");
  assert.is(edited.body.job.cron, "30 18 * * 1-5");
  assert.is(new Date(edited.body.job.nextRun ?? NaN).getUTCHours(), 18);
  const off = await patch({ id, action: "disable" });
  assert.is(off.body.job.enabled, false);
  assert.is(off.body.job.nextRun, null);
  const on = await patch({ id, action: "enable" });
  assert.is(on.body.job.enabled, true);
  assert.ok(on.body.job.nextRun);
  assert.is((await h.json<ApiBody<"deleteCrons">>(`/api/crons?id=${id}`, { method: "DELETE", session: true })).status, 200);
  assert.is((await patch({ id, action: "run" })).body.error?.code, "CRON_NOT_FOUND");
});

test("run now → 202 {job, run}; the agent gets the message on the cron session key with the job's model; output and cost recorded", async () => {
  const id = (await create({ ...job, message: "marker-run-now", model: "claude-sonnet-4-6" })).body.job.id;
  const r = await patch({ id, action: "run" });
  assert.is(r.status, 202);
  assert.is(r.body.run?.status, "running");
  assert.is(r.body.run?.trigger, "manual");
  assert.is(r.body.job.id, id);
  await waitUntil(async () => (await runs(id))[0]?.status === "ok", { timeoutMs: 5_000, label: "run ok" });
  const [run] = await runs(id);
  assert.ok(run, "the run is listed");
  assert.match(String(run.output), /marker-run-now/);
  const sent = gw.requests("agent").find((f) => f.params?.message === "marker-run-now");
  assert.is(sent.params.sessionKey, `agent:main:cron-${id}`);
  assert.is(sent.params.model, "claude-sonnet-4-6");
  assert.is(sent.params.agentId, "main");
  const after = (await h.json<ApiBody<"getCrons">>("/api/crons")).body.jobs.find((x) => x.id === id);
  assert.ok(after, "after is there");
  assert.is(after.lastStatus, "ok");
  assert.is(after.lastRun, run.startedAt);
  const afterCron = (await h.json<ApiBody<"getUsage">>("/api/usage")).body.today.byAgent.main;
  assert.ok(afterCron, "afterCron is there");
  assert.ok(afterCron.input > 0, "the run's usage is a cost event");
  // A chat turn is recorded too (the fake gateway reports usage on every reply).
  assert.is((await h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { agentId: "main", message: "count me" } })).status, 200);
  assert.ok((await h.json<ApiBody<"getUsage">>("/api/usage")).body.today.byAgent.main!.input > afterCron.input, "the chat turn is a cost event");
});

test("a job still running is skipped; gateway down → error GATEWAY_UNAVAILABLE", async () => {
  const id = (await create({ ...job, message: "slow-one" })).body.job.id;
  const hold = gate();
  gw.onChat(async (agentId, message) => {
    if (message === "slow-one") await hold.promise;
    return `Reply from ${agentId}: ${message}`;
  });
  assert.is((await patch({ id, action: "run" })).status, 202);
  const second = await patch({ id, action: "run" });
  assert.is(second.status, 202);
  assert.is(second.body.run?.status, "skipped");
  assert.is(second.body.run?.error, "ALREADY_RUNNING");
  hold.open();
  await waitUntil(async () => (await runs(id)).some((r) => r.status === "ok"), { timeoutMs: 5_000, label: "first run ok" });

  await gw.stop();
  await untilEveryInstance(async () => (await h.json<ApiBody<"getHealth">>("/api/health")).body?.gateway?.state !== "connected", { timeoutMs: 5_000, label: "gateway down" });
  const down = await patch({ id, action: "run" });
  assert.is(down.status, 202);
  await waitUntil(async () => (await runs(id))[0]?.status === "error", { timeoutMs: 5_000, label: "run error" });
  assert.is((await runs(id))[0]?.error, "GATEWAY_UNAVAILABLE");
  const j = (await h.json<ApiBody<"getCrons">>("/api/crons")).body.jobs.find((x) => x.id === id);
  assert.ok(j, "j is there");
  assert.is(j.lastStatus, "error");
  assert.is(j.lastError, "GATEWAY_UNAVAILABLE");
  assert.ok(j.nextRun, "the next fire is still scheduled");
  gw = await FakeGateway.start({ token: TOKEN, agents: [{ id: "main" }, { id: "broke" }], tickIntervalMs: 5_000, port: Number(new URL(gw.url).port) });
  await waitForGateway(h, "connected", 10_000);
});

test("over budget: run now → 409 BUDGET_EXCEEDED and the run is recorded skipped", async () => {
  const id = (await create({ ...job, agentId: "broke" })).body.job.id;
  const r = await patch({ id, action: "run" });
  assert.is(r.status, 409);
  assert.is(r.body.error?.code, "BUDGET_EXCEEDED");
  const [run] = await runs(id);
  assert.ok(run, "the run is listed");
  assert.is(run.status, "skipped");
  assert.is(run.error, "BUDGET_EXCEEDED");  // Chat to the same agent is refused too, before the gateway is asked.
  const chat = await h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { agentId: "broke", message: "hello" } });
  assert.is(chat.status, 409);
  assert.is(chat.body.error?.code, "BUDGET_EXCEEDED");
  assert.not.ok(gw.received.some((f) => (f.frame as { params?: { message?: unknown } } | undefined)?.params?.message === "hello"), "no frame of any kind carried it");
});

test("restart: a run in flight is recorded interrupted, not re-run; schedules are rebuilt", async () => {
  const id = (await create({ ...job, message: "stuck-run" })).body.job.id;
  gw.onChat(async (_a, message, _k, ctx) => {
    if (message === "stuck-run") await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    return "done";
  });
  assert.is((await patch({ id, action: "run" })).status, 202);
  await waitUntil(() => gw.requests("agent").some((f) => f.params?.message === "stuck-run"), { timeoutMs: 5_000, label: "run reached the gateway" });
  const nextBefore = (await h.json<ApiBody<"getCrons">>("/api/crons")).body.jobs.find((x) => x.id === id)?.nextRun;
  assert.ok(nextBefore !== undefined, "the job is listed");
  await h.stop();
  await start();
  const [run] = await runs(id);
  assert.ok(run, "the run is listed");
  assert.is(run.status, "interrupted");
  assert.match(String(run.error), /INTERRUPTED/);
  const sentCount = gw.requests("agent").filter((f) => f.params?.message === "stuck-run").length;
  assert.is(sentCount, 1, "never re-run");
  assert.is((await h.json<ApiBody<"getCrons">>("/api/crons")).body.jobs.find((x) => x.id === id)?.nextRun, nextBefore);
});

test("fire by schedule: a due job runs once for its fire time, also across a restart", async () => {
  await h.stop();
  // Shift the crons clock so the next whole minute is ~8 s away (the host starts meanwhile).
  const now = Date.now();
  const offset = 60_000 - (now % 60_000) - 8_000;
  await start({ crons: { clockOffsetMs: offset } });
  const id = (await create({ ...job, cron: "* * * * *", message: "scheduled-marker" })).body.job.id;
  await waitUntil(async () => (await runs(id))[0]?.status === "ok", { timeoutMs: 20_000, label: "scheduled run" });
  const [run] = await runs(id);
  assert.ok(run, "the run is listed");
  assert.is(run.trigger, "schedule");
  assert.is(new Date(run.fireAt ?? NaN).getUTCSeconds(), 0);
  // A restart right after: the claimed fire time is not run again.
  await h.stop();
  await start({ crons: { clockOffsetMs: offset } });
  const again = (await runs(id)).filter((r) => r.fireAt === run.fireAt);
  assert.is(again.length, 1);
});

test.run();
