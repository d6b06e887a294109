// Activities and notifications on a real, throwaway PostgreSQL (issue 25): their writes left
// `db.sql`. There `log()`/`create()` return the record at once and store it just after, in call
// order per process (docs/team.md); a list on the same process waits for the queued inserts, so
// an activity logged then listed over HTTP is there. Bulk read/dismiss is one `atomically` step.
// And the case that used to fail: a ratified council decision's approval now executes (its
// activity no longer throws). Their SQLite suites stay under test/plugins/activities* and
// test/plugins/notifications. One cluster for the file, always stopped; skipped, with the
// reason printed, where PostgreSQL's server binaries are missing.
import * as assert from "uvu/assert";
import { decideApproval, type ApiBody } from "@muster/plugin/testing";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { approvalsPlugin } from "../../plugins/approvals/index.ts";
import { chatPlugin } from "../../plugins/chat/index.ts";
import { councilPlugin } from "../../plugins/council/index.ts";
import { notificationsPlugin } from "../../plugins/notifications/index.ts";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import type { PluginDefinition } from "@muster/plugin";
import { waitUntil } from "../helpers/wait.ts";
import { answeredOnlyOnceStored } from "../helpers/table-held.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";
import { AGENTS, FAST, TOKEN, waitForGateway } from "../plugins/chat/chat-helpers.ts";

const { t, test, database } = postgresSuite("activities and notifications on PostgreSQL");

test("activities: logged back to back over HTTP, each listed at once, newest first in call order; one logged just before shutdown is stored", async () => {
  const url = await database();
  const ids: string[] = [];
  await withTestHost({ plugins: [activitiesPlugin], env: { DATABASE_URL: url } }, async (h) => {
    for (let i = 0; i < 5; i++) {
      // Each in its own millisecond: on PostgreSQL ties of one millisecond order by id, not by
      // insertion (docs/team.md), and a fast machine could answer two posts within one.
      const before = Date.now();
      while (Date.now() === before) await new Promise((resolve) => setImmediate(resolve));
      const logged = await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "main", action: `step_${i}`, target: `t${i}` } });
      assert.is(logged.status, 201, JSON.stringify(logged.body));
      ids.push(logged.body.id);
    }
    const listed = await h.json<ApiBody<"getActivities">>("/api/activities");
    assert.is(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.map((a) => [a.id, a.action]), ids.map((id, i) => [id, `step_${i}`]).reverse());
    const filtered = await h.json<ApiBody<"getActivities">>("/api/activities?action=step_2");
    assert.equal(filtered.body.map((a) => a.target), ["t2"]);
    // Logged just before shutdown, read by nothing on this host: the stop waits for the insert.
    const last = await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "main", action: "before_stop" } });
    ids.push(last.body.id);
  });
  await withTestHost({ plugins: [activitiesPlugin], env: { DATABASE_URL: url } }, async (h) => {
    const listed = await h.json<ApiBody<"getActivities">>("/api/activities");
    assert.equal(listed.body.map((a) => a.id), [...ids].reverse(), "stored by the host that logged them");
  });
});

/** Two instances: a record posted on A (while its table is held) is answered only once stored, and then B lists it. */
async function acknowledgedOnTheOther(
  plugins: PluginDefinition[],
  table: string,
  post: (a: TestHost) => Promise<{ status: number; id: string }>,
  listed: (b: TestHost, id: string) => Promise<boolean>,
): Promise<void> {
  const url = await database();
  await withTestHost({ plugins, env: { DATABASE_URL: url } }, (a) =>
    withTestHost({ plugins, env: { DATABASE_URL: url } }, async (b) => {
      const answer = await answeredOnlyOnceStored(url, table, () => post(a));
      assert.is(answer.status, 201);
      assert.ok(await listed(b, answer.id), "listed by the other instance");
    }),
  );
}

test("team: POST /api/activities answers 201 once the row is stored, so the other instance lists it (the 201 used to come before the insert)", () =>
  acknowledgedOnTheOther(
    [activitiesPlugin],
    "activities_activities",
    async (a) => {
      const res = await a.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "team", action: "held" } });
      return { status: res.status, id: res.body.id };
    },
    async (b, id) => (await b.json<ApiBody<"getActivities">>("/api/activities?agentId=team")).body.some((activity) => activity.id === id),
  ));

test("team: POST /api/notifications answers 201 once the row is stored, so the other instance lists it (the 201 used to come before the insert)", () =>
  acknowledgedOnTheOther(
    [activitiesPlugin, notificationsPlugin],
    "notifications_notifications",
    async (a) => {
      const res = await a.json<ApiBody<"postNotifications">>("/api/notifications", { method: "POST", body: { type: "system", title: "held" } });
      return { status: res.status, id: res.body.notification.id };
    },
    async (b, id) => (await b.json<ApiBody<"getNotifications">>("/api/notifications")).body.notifications.some((n) => n.id === id),
  ));

test("team: the activity a request logs on the side (an approval asked) is stored before the request answers, so the other instance lists it", () =>
  acknowledgedOnTheOther(
    [activitiesPlugin, notificationsPlugin, approvalsPlugin],
    "activities_activities",
    async (a) => {
      const res = await a.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { title: "Deploy", type: "deploy", requestedBy: "side-effect", context: "c" } });
      return { status: res.status, id: res.body.approval.id };
    },
    async (b) => (await b.json<ApiBody<"getActivities">>("/api/activities?agentId=side-effect")).body.some((activity) => activity.action === "approval_requested"),
  ));

test("notifications: one from an approval request and one over HTTP are listed; read by ids, unknown ids refused with nothing changed, dismiss_all", async () => {
  const url = await database();
  await withTestHost({ plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin], env: { DATABASE_URL: url } }, async (h) => {
    const requested = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { title: "Deploy", type: "deploy", requestedBy: "loki", context: "c" } });
    assert.is(requested.status, 201, JSON.stringify(requested.body));
    const created = await h.json<ApiBody<"postNotifications">>("/api/notifications", { method: "POST", body: { type: "system", title: "Disk almost full" } });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const list = () => h.json<ApiBody<"getNotifications">>("/api/notifications");

    const listed = await list();
    assert.is(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.notifications.map((n) => n.title).sort(), ["Approval requested: Deploy", "Disk almost full"]);
    assert.is(listed.body.unreadCount, 2);
    const activities = await h.json<ApiBody<"getActivities">>("/api/activities?action=approval_requested");
    assert.equal(activities.body.map((a) => a.agentId), ["loki"]);

    const patch = (body: unknown) => h.json<ApiBody<"patchNotifications">>("/api/notifications", { method: "PATCH", body });
    const read = await patch({ action: "read", ids: [created.body.notification.id] });
    assert.is(read.status, 200, JSON.stringify(read.body));
    assert.equal([read.body.ids, read.body.unreadCount], [[created.body.notification.id], 1]);
    assert.is((await patch({ action: "read", ids: [created.body.notification.id] })).body.updated, 0, "already read keeps its timestamp");

    const unknown = await patch({ action: "dismiss", ids: [created.body.notification.id, "no-such-notification"] });
    assert.is(unknown.status, 404);
    assert.is(unknown.body.error?.code, "NOTIFICATION_NOT_FOUND");
    assert.is((await list()).body.notifications.length, 2, "nothing dismissed");

    const readAll = await patch({ action: "read_all" });
    assert.equal([readAll.body.updated, readAll.body.unreadCount], [1, 0]);
    const dismissed = await patch({ action: "dismiss_all" });
    assert.is(dismissed.body.updated, 2);
    assert.equal((await list()).body.notifications, []);
  });
});

const VOTE_ASK = "Vote on the proposal";
const MODERATOR_ASK = "the moderator of a council";

test("council: a ratified decision's approval executes (its activities are stored)", async () => {
  const url = await database();
  const gw = await FakeGateway.start({ token: TOKEN, agents: AGENTS, tickIntervalMs: 5_000 });
  try {
    const plugins = [activitiesPlugin, notificationsPlugin, approvalsPlugin, chatPlugin, councilPlugin];
    await withTestHost({ plugins, env: { DATABASE_URL: url }, config: { gatewayUrl: gw.url, gatewayToken: TOKEN, gatewayTimings: FAST } }, async (h) => {
      await waitForGateway(h, "connected");
      gw.onChat((_agentId, message) => {
        if (message.includes(VOTE_ASK)) return '{"vote":"support","confidence":0.9,"reason":"ready"}';
        if (message.includes(MODERATOR_ASK)) return "PROPOSAL: ship on Friday";
        return "a position";
      });
      const session = async (id: string) => (await h.json<ApiBody<"getCouncilSessionById">>(`/api/council/session/${id}`)).body.session;
      const started = await h.json<ApiBody<"postCouncilSession">>("/api/council/session", { method: "POST", body: { topic: "Ship on Friday?", agents: ["main", "helper"], rounds: 1 } });
      assert.is(started.status, 202, JSON.stringify(started.body));
      const done = await waitUntil(async () => {
        const s = await session(started.body.session.id);
        return s.status !== "running" ? s : null;
      }, { timeoutMs: 30_000, label: "the council session's end on PostgreSQL" });
      assert.is(done.outcome, "adopted", done.error ?? undefined);
      assert.is((await decideApproval(h, done.approvalId!, "approved")).status, 200);
      const executed = await waitUntil(async () => {
        const a = (await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${done.approvalId}`)).body.approval;
        return a.executionStatus === "succeeded" || a.executionStatus === "failed" ? a : null;
      }, { timeoutMs: 30_000, label: "the ratification's execution" });
      assert.is(executed.executionStatus, "succeeded", executed.executionError ?? undefined);
      assert.is((await session(done.id)).ratifiedBy, "owner");
      const actions = (await h.json<ApiBody<"getActivities">>("/api/activities")).body.map((a) => a.action);
      assert.ok(actions.includes("approval_executed"), JSON.stringify(actions));
    });
  } finally {
    await gw.stop();
  }
});

t.run();
