// Built-in plugins whose stores left `db.sql` for driver-neutral atomic steps (issue 25), each
// on a host on a real, throwaway PostgreSQL with the plugins it requires: feedback (insert and
// learnings append in one transaction), crons (a fire time's claim and its run record),
// messenger (seen-update claims), gateway-approvals (a request's claim), approvals (the
// per-requester capped insert, raced over HTTP). Their SQLite suites
// stay under test/plugins/<plugin>. One cluster for the file, always stopped; skipped, with
// the reason printed, where PostgreSQL's server binaries are missing.
//
// The claims are raced through a probe plugin that builds the plugin's own store on the
// host's database: the messenger's webhook reads its bot token through the vault, still on
// `db.sql` (docs/team.md), so its HTTP path cannot reach the claim on PostgreSQL yet.
import * as assert from "uvu/assert";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { definePlugin, defineRoutes, defineService, hostTokens, token, z, type Database } from "@muster/plugin";
import type { ApiBody } from "@muster/plugin/testing";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { approvalsPlugin } from "../../plugins/approvals/index.ts";
import { cronsPlugin } from "../../plugins/crons/index.ts";
import { CronStore } from "../../plugins/crons/services/cron-store.ts";
import { feedbackPlugin } from "../../plugins/feedback/index.ts";
import { gatewayApprovalsPlugin } from "../../plugins/gateway-approvals/index.ts";
import { RequestStore } from "../../plugins/gateway-approvals/services/request-store.ts";
import { messengerPlugin } from "../../plugins/messenger/index.ts";
import { UpdateStore } from "../../plugins/messenger/services/update-store.ts";
import { notificationsPlugin } from "../../plugins/notifications/index.ts";
import { vaultPlugin } from "../../plugins/vault/index.ts";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { withTestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";
import { FAST, TOKEN, waitForGateway } from "../plugins/chat/chat-helpers.ts";

const { t, test, database } = postgresSuite("plugins on PostgreSQL");

/** How many racers a claim test starts at once. */
const RACERS = 20;
const DB = token<() => Database>("pg-probe.db");

/** Races `RACERS` calls of a store's claim through a route: how many won. */
const probePlugin = definePlugin({
  id: "pg-probe",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/pg-probe"],
  optionalDependsOn: ["messenger", "gateway-approvals", "crons"],
  register(ctx) {
    ctx.provide(defineService({ token: DB, deps: { db: hostTokens.db }, create: ({ db }) => () => db as Database }));
  },
  routes: defineRoutes({
    deps: { db: DB },
    mount(router, { db }) {
      const race = async (claim: () => Promise<boolean>) => ({ ok: true, won: (await Promise.all(Array.from({ length: RACERS }, claim))).filter(Boolean).length });
      router.post("/api/pg-probe/seen", { summary: "Race markSeen", body: z.object({ updateId: z.number().int(), maxSeen: z.number().int() }) }, ({ body }) => {
        const store = new UpdateStore(db, body.maxSeen);
        return race(() => store.markSeen(body.updateId, new Date().toISOString(), { kind: "message", ignored: false }));
      });
      router.post("/api/pg-probe/gateway-claim", { summary: "Race a request's claim", body: z.object({ gatewayId: z.string() }) }, ({ body }) => {
        const store = new RequestStore(db);
        return race(() => store.claim(body.gatewayId, "exec", new Date().toISOString()));
      });
      router.post("/api/pg-probe/cron-claim", { summary: "Race a fire time's claim", body: z.object({ jobId: z.string(), fireAt: z.string() }) }, ({ body }) => {
        const store = new CronStore(db);
        const startedAt = new Date().toISOString();
        return race(() => store.startRun({ id: crypto.randomUUID(), jobId: body.jobId, trigger: "schedule", fireAt: body.fireAt, startedAt, finishedAt: null, status: "running", output: null, error: null }));
      });
    },
  }),
});

test("feedback: an entry is stored with its learnings append; a failed append stores nothing", async () => {
  const url = await database();
  await withTestHost({ plugins: [feedbackPlugin], env: { DATABASE_URL: url } }, async (h) => {
    const post = (agentId: string, content: string) => h.json<ApiBody<"postFeedback">>("/api/feedback", { method: "POST", body: { agentId, type: "rule", content } });
    const created = await post("odin", "Cite the source");
    assert.is(created.status, 201, JSON.stringify(created.body));
    assert.match(readFileSync(join(h.workspace, "company/knowledge_base/feedback/odin-learnings.md"), "utf8"), /Cite the source/);
    // The learnings file is a directory: the append fails inside the transaction, which rolls the row back.
    mkdirSync(join(h.workspace, "company/knowledge_base/feedback/bragi-learnings.md"));
    const refused = await post("bragi", "x");
    assert.is(refused.status, 409);
    assert.is(refused.body.error?.code, "FEEDBACK_FILE_UNWRITABLE");
    const list = await h.json<ApiBody<"getFeedback">>("/api/feedback");
    assert.equal(list.body.entries.map((e) => [e.agentId, e.content, e.appliedTo]), [["odin", "Cite the source", ["company/knowledge_base/feedback/odin-learnings.md"]]]);
  });
});

test("crons: a due job fires once and its run is recorded; of 20 claims of one fire time one wins; a delete takes its runs", async () => {
  const url = await database();
  const gw = await FakeGateway.start({ token: TOKEN, agents: [{ id: "main" }], tickIntervalMs: 5_000 });
  // The crons clock shifted so that the next whole minute is ~8 s away (the host starts meanwhile).
  const offset = 60_000 - (Date.now() % 60_000) - 8_000;
  try {
    await withTestHost(
      { plugins: [cronsPlugin, probePlugin], env: { DATABASE_URL: url }, config: { gatewayUrl: gw.url, gatewayToken: TOKEN, gatewayTimings: FAST, pluginConfig: { crons: { clockOffsetMs: offset } } } },
      async (h) => {
        await waitForGateway(h, "connected");
        const runs = async (id: string) => (await h.json<ApiBody<"getCronsRuns">>(`/api/crons/runs?id=${id}`)).body.runs;
        const created = await h.json<ApiBody<"postCrons">>("/api/crons", { method: "POST", body: { name: "Every minute", agentId: "main", cron: "* * * * *", message: "scheduled-marker" } });
        assert.is(created.status, 201, JSON.stringify(created.body));
        const id = created.body.job.id;
        await waitUntil(async () => (await runs(id))[0]?.status === "ok", { timeoutMs: 30_000, label: "the scheduled run on PostgreSQL" });
        const [run] = await runs(id);
        assert.is(run!.trigger, "schedule");
        assert.is(new Date(run!.fireAt ?? NaN).getUTCSeconds(), 0);
        const job = (await h.json<ApiBody<"getCrons">>("/api/crons")).body.jobs.find((j) => j.id === id)!;
        assert.is(job.lastStatus, "ok");

        // A later fire time, claimed by 20 racers at once: exactly one claims it and records its run.
        const fireAt = new Date(Date.parse(run!.fireAt!) + 3_600_000).toISOString();
        const raced = await h.json<{ won: number }>("/api/pg-probe/cron-claim", { method: "POST", body: { jobId: id, fireAt } });
        assert.is(raced.status, 200, JSON.stringify(raced.body));
        assert.is(raced.body.won, 1);
        assert.is((await runs(id)).filter((r) => r.fireAt === fireAt).length, 1);
        // An earlier fire time than the claimed one is never claimed again.
        assert.is((await h.json<{ won: number }>("/api/pg-probe/cron-claim", { method: "POST", body: { jobId: id, fireAt: run!.fireAt } })).body.won, 0);

        assert.is((await h.json(`/api/crons?id=${id}`, { method: "DELETE", session: true })).status, 200);
        assert.is((await h.json(`/api/crons/runs?id=${id}`)).status, 404);
      },
    );
  } finally {
    await gw.stop();
  }
});

test("messenger: of 20 deliveries of one update id one is taken; the retained window holds; the status reads the store", async () => {
  const url = await database();
  await withTestHost({ plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin, vaultPlugin, messengerPlugin, probePlugin], env: { DATABASE_URL: url } }, async (h) => {
    const empty = await h.json<ApiBody<"getMessenger">>("/api/messenger");
    assert.is(empty.status, 200, JSON.stringify(empty.body));
    assert.is(empty.body.lastUpdate, null);
    assert.equal(empty.body.media, { saved: 0, bytes: 0, lastSavedAt: null });

    const seen = (updateId: number) => h.json<{ won: number }>("/api/pg-probe/seen", { method: "POST", body: { updateId, maxSeen: 3 } });
    const first = await seen(100);
    assert.is(first.status, 200, JSON.stringify(first.body));
    assert.is(first.body.won, 1);
    assert.is((await seen(100)).body.won, 0, "a redelivery is a duplicate");
    for (const id of [101, 102, 103]) assert.is((await seen(id)).body.won, 1);
    // The window keeps 3 (101..103): 100 was trimmed, and counts as seen because it is older than all kept.
    assert.is((await seen(100)).body.won, 0);
    const status = await h.json<ApiBody<"getMessenger">>("/api/messenger");
    assert.equal({ ...status.body.lastUpdate, receivedAt: undefined }, { updateId: 103, kind: "message", ignored: false, receivedAt: undefined });
  });
});

test("gateway-approvals: of 20 deliveries of one request one claims it", async () => {
  const url = await database();
  await withTestHost({ plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin, gatewayApprovalsPlugin, probePlugin], env: { DATABASE_URL: url } }, async (h) => {
    const claim = (gatewayId: string) => h.json<{ won: number }>("/api/pg-probe/gateway-claim", { method: "POST", body: { gatewayId } });
    const first = await claim("exec-1");
    assert.is(first.status, 200, JSON.stringify(first.body));
    assert.is(first.body.won, 1);
    assert.is((await claim("exec-1")).body.won, 0, "a redelivery is ignored");
    assert.is((await claim("exec-2")).body.won, 1);
    // The approvals plugin it requires lists its queue and history on PostgreSQL (raw sort names quoted).
    const approvals = await h.json<ApiBody<"getApprovals">>("/api/approvals");
    assert.is(approvals.status, 200, JSON.stringify(approvals.body));
  });
});

test("approvals: the per-requester cap refuses with APPROVAL_PENDING_LIMIT; of 20 concurrent requests of one requester exactly the cap's worth is queued", async () => {
  const url = await database();
  const MAX_PENDING = 3;
  const config = { approvers: ["frigg"], pluginConfig: { approvals: { maxPendingPerRequester: MAX_PENDING } } };
  await withTestHost({ plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin], env: { DATABASE_URL: url }, config }, async (h) => {
    const request = (requestedBy: string) =>
      h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { title: `from ${requestedBy}`, type: "deploy", requestedBy, context: "c" } });
    const pendingOf = async (requestedBy: string) =>
      (await h.client.getApprovals({ query: { pendingLimit: 500 } })).pending.filter((a) => a.requestedBy === requestedBy);

    for (let i = 0; i < MAX_PENDING; i++) {
      const created = await request("loki");
      assert.is(created.status, 201, JSON.stringify(created.body));
    }
    const refused = await request("loki");
    assert.is(refused.status, 429);
    assert.is(refused.body.error?.code, "APPROVAL_PENDING_LIMIT");
    // The cap is per requester: another one still gets through.
    assert.is((await request("thor")).status, 201);

    // Every request counts before any of the others' inserts commit unless they queue per requester.
    const raced = await Promise.all(Array.from({ length: RACERS }, () => request("baldr")));
    const statuses = raced.map((r) => r.status);
    assert.is(statuses.filter((s) => s === 201).length, MAX_PENDING, JSON.stringify(statuses));
    assert.ok(raced.filter((r) => r.status !== 201).every((r) => r.status === 429 && r.body.error?.code === "APPROVAL_PENDING_LIMIT"), JSON.stringify(raced.map((r) => r.body)));
    assert.is((await pendingOf("baldr")).length, MAX_PENDING);
    assert.is((await pendingOf("loki")).length, MAX_PENDING);
  });
});

t.run();
