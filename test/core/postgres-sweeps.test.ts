// Team mode (issue 25) for the start-up sweeps of dispatch, council and approvals: work one
// instance has in flight (a dispatch, a council deliberation, an approved action's execution)
// is left alone by another instance's start and by its 2 s sweep for dead instances; work no
// live instance owns is settled as before (interrupted, failed). Real hosts on one real,
// throwaway cluster; the fake gateway holds the agent turns, a test gated action the execution.
//
// A host that stops cleanly ends its council sessions (cancelled) and its executions itself,
// so what another instance does with a dead one's session or execution is shown on the stores
// (an owner that is not among the live ids); a stopped host leaves its dispatches running,
// so that one is shown end to end.
import * as assert from "uvu/assert";
import { randomUUID } from "node:crypto";
import { defineGatedAction, definePlugin, defineRoutes, defineService, hostTokens, token, z, type Database, type PluginDefinition } from "@muster/plugin";
import { decideApproval, type ApiBody } from "@muster/plugin/testing";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { approvalsPlugin } from "../../plugins/approvals/index.ts";
import { ApprovalStore } from "../../plugins/approvals/services/approval-store.ts";
import { chatPlugin } from "../../plugins/chat/index.ts";
import { councilPlugin } from "../../plugins/council/index.ts";
import { CouncilStore } from "../../plugins/council/services/council-store.ts";
import { dispatchPlugin } from "../../plugins/dispatch/index.ts";
import { ReviewStore } from "../../plugins/dispatch/services/review-store.ts";
import { notificationsPlugin } from "../../plugins/notifications/index.ts";
import { workPlugin } from "../../plugins/work/index.ts";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { removeHome, startTestHost, type StartOptions, type TestHost } from "../helpers/start-test-host.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";
import { sleep, waitUntil } from "../helpers/wait.ts";
import { AGENTS, FAST, TOKEN, waitForGateway } from "../plugins/chat/chat-helpers.ts";

const { t, test, database } = postgresSuite("start-up sweeps of dispatch, council and approvals on one PostgreSQL database");

/** More than one sweep interval (2 s) of the second instance. */
const PAST_A_SWEEP_MS = 3_000;
const HELD_KIND = "sweeps-test.send";
let executions = 0;
let finishExecution: () => void = () => undefined;
const DB = token<() => Database>("sweeps-test.db");

/** A gated action that runs until the test lets it finish, and the stores of council and approvals driven as another instance would. */
const probePlugin = definePlugin({
  id: "sweeps-test",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/sweeps-test"],
  optionalDependsOn: ["approvals", "council", "dispatch"],
  register(ctx) {
    ctx.provide(defineService({ token: DB, deps: { db: hostTokens.db }, create: ({ db }) => () => db as Database }));
  },
  gatedActions: [
    defineGatedAction({
      kind: HELD_KIND,
      deps: {},
      create: () => ({
        describe: (p: { text: string }) => `Send "${p.text}"`,
        async execute(payload: { text: string }) {
          executions++;
          await new Promise<void>((resolve) => (finishExecution = resolve));
          return { sent: payload.text };
        },
      }),
    }),
  ],
  routes: defineRoutes({
    deps: { db: DB, gate: hostTokens.gate, instances: hostTokens.instances },
    mount(router, { db, gate, instances }) {
      const now = () => new Date().toISOString();
      const live = z.object({ live: z.array(z.string()) });
      router.post("/api/sweeps-test/request", { summary: "Request the held gated action", status: 201, body: z.object({ text: z.string() }) }, async ({ body }) => ({
        ok: true,
        ...(await gate.request(HELD_KIND, { text: body.text }, { requestedBy: "odin", title: "Send" })),
      }));
      router.post("/api/sweeps-test/review-opening", { summary: "A task's review this instance opened and is still linking to its approval (the moment a start or a sweep elsewhere could catch)", body: z.object({ taskId: z.string() }) }, async ({ body }) => {
        const review = await new ReviewStore(db, () => instances.id).open(body.taskId, now());
        return { ok: true, opened: review !== null };
      });
      router.post("/api/sweeps-test/council-owned", { summary: "A session another instance deliberates: left alone while it lives, failed once it is gone", body: live }, async ({ body }) => {
        const other = new CouncilStore(db, () => "instance-b");
        const id = randomUUID();
        await other.insert({ id, topic: "Elsewhere", agents: ["main"], rounds: 1, status: "running", positions: [], proposal: null, votes: [], outcome: null, approvalId: null, memoPath: null, error: null, createdAt: now(), completedAt: null, ratifiedAt: null, ratifiedBy: null });
        const mine = new CouncilStore(db, () => body.live[0] ?? null);
        const whileAlive = await mine.failInterrupted(now(), [...body.live, "instance-b"]);
        const onceGone = await mine.failInterrupted(now(), body.live);
        const session = await mine.get(id);
        return { ok: true, whileAlive, onceGone, status: session?.status, error: session?.error, shown: Object.keys(session ?? {}) };
      });
      router.post("/api/sweeps-test/execution-owned", { summary: "An execution another instance runs: left alone while it lives, failed once it is gone", body: live }, async ({ body }) => {
        const other = new ApprovalStore(db, () => "instance-b");
        const id = randomUUID();
        const row = { id, taskId: "t", title: "Send", requestedBy: "odin", approver: "owner", command: HELD_KIND, context: null, description: null, gated: true, payload: "{}", payloadHash: null, createdAt: now(), expiresAt: null };
        await other.insertWithinCap(row, { requesterKey: `sweeps-${id}`, maxPending: 10, now: now() });
        const started = await other.transition({ id, status: "approved", reason: null, decidedBy: "owner", resolvedAt: now(), startExecution: true }, now());
        const mine = new ApprovalStore(db, () => body.live[0] ?? null);
        const whileAlive = await mine.failInterrupted(now(), [...body.live, "instance-b"]);
        const onceGone = await mine.failInterrupted(now(), body.live);
        return { ok: true, started: started?.executionStatus, whileAlive: whileAlive.length, onceGone: onceGone.map((r) => [r.id === id, r.executionStatus, Object.keys(r).includes("executionOwner")]) };
      });
    },
  }),
});

/** Starts hosts on one database and stops every one still running at the end. */
async function withInstances(body: (start: (options: StartOptions) => Promise<TestHost>, stop: (h: TestHost) => Promise<void>) => Promise<void>, beforeStop: () => void = () => undefined): Promise<void> {
  const hosts: TestHost[] = [];
  const stop = async (h: TestHost) => {
    hosts.splice(hosts.indexOf(h), 1);
    await h.stop();
    removeHome(h.home);
  };
  try {
    await body(async (options) => {
      const h = await startTestHost(options);
      hosts.push(h);
      return h;
    }, stop);
  } finally {
    beforeStop();
    for (const h of [...hosts]) await stop(h);
  }
}

/**
 * Hosts with `plugins` on one database, connected to a fake gateway whose turns are held until
 * the run is aborted (its host stops); `held` counts the turns it holds.
 */
async function withHeldTurns(plugins: PluginDefinition[], body: (start: () => Promise<TestHost>, stop: (h: TestHost) => Promise<void>, held: () => number) => Promise<void>): Promise<void> {
  const url = await database();
  const gw = await FakeGateway.start({ token: TOKEN, agents: AGENTS, tickIntervalMs: 5_000 });
  const options: StartOptions = { plugins, env: { DATABASE_URL: url }, config: { gatewayUrl: gw.url, gatewayToken: TOKEN, gatewayTimings: FAST } };
  let held = 0;
  gw.onChat((_agent, _message, _key, ctx) => {
    held++;
    return new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("cut")));
  });
  try {
    await withInstances(async (start, stop) => {
      const startConnected = async () => {
        const h = await start(options);
        await waitForGateway(h, "connected");
        return h;
      };
      await body(startConnected, stop, () => held);
    });
  } finally {
    await gw.stop();
  }
}

test("dispatch: a dispatch in flight on one instance survives another's start and sweeps; once its instance is gone, the other marks it interrupted and moves its task back", async () => {
  await withHeldTurns([activitiesPlugin, notificationsPlugin, approvalsPlugin, workPlugin, chatPlugin, dispatchPlugin] as PluginDefinition[], async (start, stop, held) => {
    const a = await start();
    const task = await a.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "Write the release notes", assignedTo: "main" } });
    assert.is(task.status, 201, JSON.stringify(task.body));
    const taskId = task.body.id;
    const before = task.body.status;
    const dispatched = await a.json<ApiBody<"postDispatch">>("/api/dispatch", { method: "POST", body: { taskId } });
    assert.is(dispatched.status, 202, JSON.stringify(dispatched.body));
    const id = dispatched.body.dispatch.id;
    assert.not.ok("owner" in dispatched.body.dispatch, "the API shows the instance running it");
    await waitUntil(() => held() === 1, { label: "the dispatch reached the gateway" });
    const read = async (h: TestHost) => (await h.json<ApiBody<"getDispatchById">>(`/api/dispatch/${id}`)).body.dispatch;

    // A second instance starts while the dispatch is in flight on the first: it leaves it alone
    // (before, every start marked every running dispatch interrupted).
    const b = await start();
    assert.is((await read(b)).status, "running");
    await sleep(PAST_A_SWEEP_MS);
    assert.is((await read(b)).status, "running", "a live instance's dispatch was interrupted");

    // The first instance goes and leaves its dispatch running (its row leaves the registry; a
    // killed one would stop its heartbeat instead): the second marks it interrupted and moves
    // the task back, and nothing sends it again.
    await stop(a);
    const interrupted = await waitUntil(async () => ((await read(b)).status === "interrupted" ? read(b) : null), { timeoutMs: 15_000, label: "interrupted by the other instance" });
    assert.match(interrupted.error ?? "", /not sent again/);
    assert.not.ok("owner" in interrupted);
    await waitUntil(async () => (await b.json<ApiBody<"getTasksById">>(`/api/tasks/${taskId}`)).body.status === before, { timeoutMs: 15_000, label: "the task moved back" });
    assert.is(held(), 1, "the dispatch was sent again");
  });
});

test("dispatch: a task review another live instance is linking survives a start and sweeps; once its instance is gone, the sweep repairs it with exactly one approval", async () => {
  const url = await database();
  const options: StartOptions = { plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin, workPlugin, chatPlugin, dispatchPlugin, probePlugin] as PluginDefinition[], env: { DATABASE_URL: url } };
  await withInstances(async (start, stop) => {
    const a = await start(options);
    const task = await a.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "Check the invoices" } });
    assert.is(task.status, 201, JSON.stringify(task.body));
    const taskId = task.body.id;
    // A is between opening the task's review and linking its approval (the approval not created yet)
    // when the task enters review; its own review request then finds the review pending.
    const opening = await a.json<{ opened: boolean }>("/api/sweeps-test/review-opening", { method: "POST", body: { taskId } });
    assert.equal([opening.status, opening.body.opened], [200, true], JSON.stringify(opening.body));
    const moved = await a.json<ApiBody<"patchTasksById">>(`/api/tasks/${taskId}`, { method: "PATCH", body: { status: "review" } });
    assert.is(moved.status, 200, JSON.stringify(moved.body));
    const reviewApprovals = async (h: TestHost) => (await h.json<ApiBody<"getApprovals">>("/api/approvals?limit=500&pendingLimit=500")).body.pending.filter((p) => p.taskId === taskId && p.command === "task.review").length;
    assert.is(await reviewApprovals(a), 0);

    // Before, B's start dropped A's review as left half-made by a dead process and opened one
    // of its own: the task got a second approval once A linked its own.
    const b = await start(options);
    assert.is(await reviewApprovals(b), 0, "a live instance's review was repaired by another's start");
    await sleep(PAST_A_SWEEP_MS);
    assert.is(await reviewApprovals(b), 0, "a live instance's review was repaired by another's sweep");

    // A goes without linking it: B's sweep drops the half-made review and opens the task's one review.
    await stop(a);
    await waitUntil(async () => ((await reviewApprovals(b)) > 0 ? true : null), { timeoutMs: 15_000, label: "the review repaired by the other instance" });
    await sleep(PAST_A_SWEEP_MS);
    assert.is(await reviewApprovals(b), 1, "exactly one approval for the task's review");
  });
});

test("council: a session deliberating on one instance survives another's start and sweeps; a session of an instance that is gone is failed", async () => {
  await withHeldTurns([activitiesPlugin, notificationsPlugin, approvalsPlugin, chatPlugin, councilPlugin, probePlugin] as PluginDefinition[], async (start, stop, held) => {
    const a = await start();
    const started = await a.json<ApiBody<"postCouncilSession">>("/api/council/session", { method: "POST", body: { topic: "Ship on Friday?", agents: ["main", "helper"], rounds: 1 } });
    assert.is(started.status, 202, JSON.stringify(started.body));
    const id = started.body.session.id;
    assert.not.ok("owner" in started.body.session, "the API shows the instance deliberating");
    await waitUntil(() => held() > 0, { label: "the first turn reached the gateway" });
    const read = async (h: TestHost) => (await h.json<ApiBody<"getCouncilSessionById">>(`/api/council/session/${id}`)).body.session;

    // Before, the second instance's start failed the first's session mid-deliberation.
    const b = await start();
    assert.is((await read(b)).status, "running");
    await sleep(PAST_A_SWEEP_MS);
    const still = await read(b);
    assert.is(still.status, "running", `a live instance's session was failed: ${still.error}`);
    // A clean stop ends its own sessions.
    await stop(a);
    assert.is((await read(b)).status, "cancelled");

    const liveIds = [`instance-of-${randomUUID()}`];
    const owned = await b.json<{ whileAlive: number; onceGone: number; status: string; error: string; shown: string[] }>("/api/sweeps-test/council-owned", { method: "POST", body: { live: liveIds } });
    assert.is(owned.status, 200, JSON.stringify(owned.body));
    assert.is(owned.body.whileAlive, 0, "a live instance's session was failed");
    assert.is(owned.body.onceGone, 1);
    assert.is(owned.body.status, "failed");
    assert.match(owned.body.error, /Muster stopped/);
    assert.not.ok(owned.body.shown.includes("owner"), "the record carries the owner");
  });
});

test("approvals: an execution in flight on one instance survives another's start and sweeps and records its outcome; one of an instance that is gone is failed", async () => {
  const url = await database();
  const options: StartOptions = { plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin, probePlugin] as PluginDefinition[], env: { DATABASE_URL: url } };
  let onEnd = () => undefined as void;
  await withInstances(async (start) => {
    const a = await start(options);
    const requested = await a.json<{ approvalId: string }>("/api/sweeps-test/request", { method: "POST", body: { text: "hi" } });
    assert.is(requested.status, 201, JSON.stringify(requested.body));
    const id = requested.body.approvalId;
    const decided = decideApproval(a, id, "approved");
    // However the test ends, the executor ends first (the decision's answer waits for it).
    onEnd = () => finishExecution();
    await waitUntil(() => executions === 1, { label: "the executor started" });
    const read = async (h: TestHost) => (await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${id}`)).body.approval;

    // Before, the second instance's start marked the execution failed while it ran, and the
    // executor's outcome was then lost (only a running execution finishes).
    const b = await start(options);
    assert.is((await read(b)).executionStatus, "running");
    await sleep(PAST_A_SWEEP_MS);
    assert.is((await read(b)).executionStatus, "running", "a live instance's execution was failed");
    finishExecution();
    const answer = await decided;
    assert.is(answer.status, 200, JSON.stringify(answer.body));
    const done = await read(b);
    assert.equal([done.executionStatus, done.executionResult, done.executionError], ["succeeded", { sent: "hi" }, null]);
    assert.not.ok("executionOwner" in done, "the API shows the instance running it");
    assert.is(executions, 1);

    const owned = await b.json<{ started: string; whileAlive: number; onceGone: [boolean, string, boolean][] }>("/api/sweeps-test/execution-owned", { method: "POST", body: { live: [`instance-of-${randomUUID()}`] } });
    assert.is(owned.status, 200, JSON.stringify(owned.body));
    assert.is(owned.body.started, "running");
    assert.is(owned.body.whileAlive, 0, "a live instance's execution was failed");
    assert.equal(owned.body.onceGone, [[true, "failed", false]]);
  }, () => onEnd());
});

t.run();
