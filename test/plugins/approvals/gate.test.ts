// The approval gate through HTTP, with a test plugin that defines a gated action and counts
// its executions: nothing runs without an explicit approval, and an approval runs it once.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { defineGatedAction, definePlugin, z, type MusterEvent, type PluginDefinition } from "@muster/plugin";
import { decideApproval, type ApprovalDecision } from "@muster/plugin/testing";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { notificationsPlugin } from "../../../plugins/notifications/index.ts";
import { approvalsPlugin } from "../../../plugins/approvals/index.ts";
import { streamPlugin } from "../../../plugins/stream/index.ts";
import { openSse } from "../../helpers/sse-client.ts";
import { startTestHost, removeHome, withTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { sleep, waitUntil } from "../../helpers/wait.ts";
import type { ApiBody } from "@muster/plugin/testing";
import { sqliteFileTest, withDatabaseFile } from "../../helpers/database-file.ts";

const KIND = "gate-test.send";
type SendPayload = { text: string; fail?: boolean; delayMs?: number };
interface Run {
  payload: SendPayload;
  decision: { approvalId: string; decidedBy: string };
}
const runs: Run[] = [];
const events: MusterEvent[] = [];

/** Defines `gate-test.send`, counts executions, and exposes `POST /api/gate-test` to request it. */
const gateTestPlugin = definePlugin({
  id: "gate-test",
  version: "1.0.0",
  host: "^1.0.0",
  dependsOn: ["approvals"],
  paths: ["/api/gate-test"],
  gatedActions: [
    defineGatedAction({
      kind: KIND,
      deps: {},
      create: () => ({
        describe: (p: SendPayload) => `Send "${p.text}" to the outside world`,
        async execute(payload: SendPayload, decision) {
          runs.push({ payload, decision });
          if (payload.delayMs) await sleep(payload.delayMs); // holds the execution open so concurrent decisions overlap it
          if (payload.fail) throw new Error("upstream refused the message");
          return { sent: true, echo: payload.text };
        },
      }),
    }),
  ],
  onStart(ctx) {
    ctx.events.subscribe("approvals.*", (event) => void events.push(event));
  },
  routes(router, ctx) {
    router.post(
      "/api/gate-test",
      {
        summary: "Request the gated test action",
        status: 201,
        body: z.strictObject({ payload: z.json(), requestedBy: z.string(), title: z.string(), expiresAt: z.string().optional() }),
      },
      async ({ body }) => ({
        ok: true,
        ...(await ctx.gate.request(KIND, body.payload, {
          requestedBy: body.requestedBy,
          title: body.title,
          expiresAt: body.expiresAt ? new Date(body.expiresAt) : undefined,
        })),
      }),
    );
  },
});

const plugins: PluginDefinition[] = [activitiesPlugin, notificationsPlugin, approvalsPlugin, streamPlugin];
/** The configured humans besides the owner ("owner"): only they and the owner may decide. */
const config = { approvers: ["frigg", "odin"] };
const t = suite<{ h: TestHost }>("approvals gate");

async function request(h: TestHost, payload: unknown, extra: Record<string, unknown> = {}): Promise<string> {
  // The suite's own gated route (outside the OpenAPI) answers the approval it raised.
  const res = await h.json<{ approvalId: string; status: string }>("/api/gate-test", { method: "POST", body: { payload, requestedBy: "odin", title: "Post to the network", ...extra } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(res.body.status, "pending");
  return res.body.approvalId;
}
const decide = (h: TestHost, id: string, { status, ...by }: { status: ApprovalDecision; decidedBy?: string; reason?: string }, init: { session?: boolean; headers?: Record<string, string> } = { session: true }) =>
  decideApproval(h, id, status, { ...by, session: init.session === true, headers: init.headers });
const approval = async (h: TestHost, id: string) => (await h.client.getApprovalsById({ id })).approval;
const runsOf = (id: string) => runs.filter((r) => r.decision.approvalId === id);
/** The host's database file, for fault injection only (see docs/testing.md). */
const withDb = <T>(h: TestHost, fn: Parameters<typeof withDatabaseFile<T>>[1]): T => withDatabaseFile(h.home, fn);

t.before(async (ctx) => {
  ctx.h = await startTestHost({ plugins, extraPlugins: [gateTestPlugin], config });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("a gated request is pending, stores the exact payload and its SHA-256, and runs nothing", async ({ h }) => {
  const payload = { text: "héllo 🚀", nested: { list: [1, 2.5, null, true] }, __proto__x: "kept" };
  const id = await request(h, payload);
  const a = await approval(h, id);
  assert.is(a.status, "pending");
  assert.is(a.command, KIND);
  assert.is(a.gated, true);
  assert.is(a.taskId, "Post to the network");
  assert.is(a.approver, "owner");
  assert.equal(a.payload, payload);
  const { createHash } = await import("node:crypto");
  assert.is(a.payloadHash, createHash("sha256").update(JSON.stringify(payload)).digest("hex"));
  assert.is(a.description, 'Send "héllo 🚀" to the outside world');
  assert.is(a.executionStatus, "none");
  await sleep(50); // a sleep on purpose: proves nothing runs within the window
  assert.is(runsOf(id).length, 0);
  const list = await h.client.getApprovals();
  assert.ok(list.pending.some((p) => p.id === id));
});

t("approving runs the executor once with the exact stored payload and records the result", async ({ h }) => {
  const payload = { text: "ship it", n: 1 };
  const id = await request(h, payload);
  const res = await decide(h, id, { status: "approved", reason: "looks right" });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.ok, true);
  const a = res.body.approval;
  assert.is(a.status, "approved");
  assert.is(a.decidedBy, "owner");
  assert.is(a.approver, "owner");
  assert.is(a.reason, "looks right");
  assert.ok(a.resolvedAt);
  assert.is(a.executionStatus, "succeeded");
  assert.equal(a.executionResult, { sent: true, echo: "ship it" });
  assert.ok(a.executedAt);
  assert.is(runsOf(id).length, 1);
  assert.equal(runsOf(id)[0]!.payload, payload);
  assert.equal(runsOf(id)[0]!.decision, { approvalId: id, decidedBy: "owner" });
  const list = await h.client.getApprovals();
  assert.not.ok(list.pending.some((p) => p.id === id));
  assert.is(list.history[0]?.id, id);
  // Reported: bus events without the payload, an activity and a notification.
  await waitUntil(() => events.some((e) => e.name === "approvals.approval.executed" && (e.payload as { id?: string }).id === id), { label: "approvals.approval.executed" });
  const names = events.filter((e) => (e.payload as { id?: string }).id === id).map((e) => e.name);
  assert.equal(names, ["approvals.approval.created", "approvals.approval.approved", "approvals.approval.executed"]);
  for (const e of events) {
    assert.is(e.public, true);
    assert.not.ok("payload" in (e.payload as object), "events never carry the payload");
    assert.not.ok("executionResult" in (e.payload as object));
  }
  const activities = (await h.client.getActivities({ query: { limit: 1000 } })).filter((x) => x.target === id).map((x) => x.action);
  assert.equal(activities.sort(), ["approval_executed", "approval_requested", "approval_resolved"]);
  const notes = (await h.client.getNotifications({ query: { limit: 500 } })).notifications;
  assert.ok(notes.some((n) => n.title === "Approval approved: Post to the network" && n.type === "approval"));
  // Deciding again is a conflict and runs nothing more.
  const again = await decide(h, id, { status: "rejected" });
  assert.is(again.status, 409);
  assert.is(again.body.error?.code, "APPROVAL_ALREADY_RESOLVED");
  const twice = await decide(h, id, { status: "approved" });
  assert.is(twice.status, 409);
  assert.is(runsOf(id).length, 1);
  assert.is((await approval(h, id)).status, "approved");
});

t("rejecting never runs the executor; approving afterwards is a conflict", async ({ h }) => {
  const id = await request(h, { text: "nope" });
  const res = await decide(h, id, { status: "rejected", reason: "not now", decidedBy: "frigg" });
  assert.is(res.status, 200);
  assert.is(res.body.approval.status, "rejected");
  assert.is(res.body.approval.decidedBy, "frigg");
  assert.is(res.body.approval.approver, "frigg");
  assert.is(res.body.approval.executionStatus, "none");
  const after = await decide(h, id, { status: "approved" });
  assert.is(after.status, 409);
  assert.is(after.body.error?.code, "APPROVAL_ALREADY_RESOLVED");
  await sleep(50); // a sleep on purpose: proves nothing runs within the window
  assert.is(runsOf(id).length, 0);
});

t("two simultaneous decisions: one 200, one 409, one execution", async ({ h }) => {
  for (const second of ["approved", "rejected"] as const) {
    const id = await request(h, { text: "race", delayMs: 100 });
    const [a, b] = await Promise.all([decide(h, id, { status: "approved" }), decide(h, id, { status: second })]);
    const statuses = [a.status, b.status].sort();
    assert.equal(statuses, [200, 409], `${a.status} ${b.status}`);
    const loser = a.status === 409 ? a : b;
    assert.is(loser.body.error?.code, "APPROVAL_ALREADY_RESOLVED");
    const winner = a.status === 200 ? a : b;
    assert.is(runsOf(id).length, winner.body.approval.status === "approved" ? 1 : 0);
  }
  // Ten at once.
  const id = await request(h, { text: "stampede", delayMs: 50 });
  const all = await Promise.all(Array.from({ length: 10 }, () => decide(h, id, { status: "approved" })));
  assert.is(all.filter((r) => r.status === 200).length, 1);
  assert.is(all.filter((r) => r.status === 409).length, 9);
  assert.is(runsOf(id).length, 1);
});

t("an agent (X-Agent-Id) cannot decide: 403, nothing changes", async ({ h }) => {
  const id = await request(h, { text: "agent tries" });
  const res = await decide(h, id, { status: "approved", decidedBy: "daniel" }, { session: true, headers: { "x-agent-id": "loki" } });
  assert.is(res.status, 403);
  assert.is(res.body.error?.code, "APPROVAL_AGENT_FORBIDDEN");
  assert.is((await approval(h, id)).status, "pending");
  assert.is(runsOf(id).length, 0);
});

t("the requester cannot decide its own request, however the name is spelled: 403, nothing changes", async ({ h }) => {
  const id = await request(h, { text: "self" });
  // Case, spaces, zero-width and bidi characters, soft hyphens and full-width forms all name odin.
  const spellings = ["odin", "Odin", " odin ", "ODIN", "odin\u200b", "o\u200dd\u2060i\ufeffn", "\u202eodin", "od\u00adin", "ｏｄｉｎ", "ＯＤＩＮ", "o d\u3000in", "odin\u180e",
    // Default-ignorable characters outside Cf render as nothing too: the combining grapheme joiner, variation selectors, Hangul fillers.
    "odin\u034f", "odin\ufe0f", "o\u180bdin", "odin\u{e0100}", "odin\u3164", "o\u115fdin", "odin\uffa0", "odin\u17b4"];
  for (const decidedBy of spellings) {
    const res = await decide(h, id, { status: "approved", decidedBy });
    assert.is(res.status, 403, JSON.stringify(decidedBy));
    assert.is(res.body.error?.code, "APPROVAL_SELF_DECISION", JSON.stringify(decidedBy));
  }
  // A requester spelled oddly is still odin.
  const odd = await request(h, { text: "odd requester" }, { requestedBy: "ｏｄｉｎ\u200b" });
  const oddRes = await decide(h, odd, { status: "approved", decidedBy: "odin" });
  assert.is(oddRes.status, 403);
  assert.is(oddRes.body.error?.code, "APPROVAL_SELF_DECISION");
  assert.is(runsOf(odd).length, 0);
  const joined = await request(h, { text: "requester with a grapheme joiner" }, { requestedBy: "odin\u034f\ufe0f" });
  const joinedRes = await decide(h, joined, { status: "approved", decidedBy: "odin" });
  assert.is(joinedRes.status, 403);
  assert.is(joinedRes.body.error?.code, "APPROVAL_SELF_DECISION");
  // The default decider is the owner: an owner's own request needs another decider.
  const own = await request(h, { text: "owner asks" }, { requestedBy: "owner" });
  const res = await decide(h, own, { status: "approved" });
  assert.is(res.status, 403);
  assert.is(res.body.error?.code, "APPROVAL_SELF_DECISION");
  assert.is((await approval(h, id)).status, "pending");
  assert.is((await approval(h, own)).status, "pending");
  assert.is(runsOf(id).length + runsOf(own).length, 0);
  const other = await decide(h, own, { status: "approved", decidedBy: "frigg" });
  assert.is(other.status, 200);
  assert.is(runsOf(own).length, 1);
});

t("only the owner and configured approvers decide: anyone else is 403 APPROVAL_DECIDER_NOT_ALLOWED and nothing runs", async ({ h }) => {
  const id = await request(h, { text: "who decides" });
  // Not configured: free names, look-alikes from other scripts, the dotless ı, names that are only invisible characters.
  for (const decidedBy of ["loki", "daniel", "odın", "frıgg", "оwner", "frigg2", "\u200b\u200b", "owner.", "*"]) {
    for (const status of ["approved", "rejected"] as const) {
      const res = await decide(h, id, { status, decidedBy });
      assert.is(res.status, 403, JSON.stringify(decidedBy));
      assert.is(res.body.error?.code, "APPROVAL_DECIDER_NOT_ALLOWED", JSON.stringify(decidedBy));
    }
  }
  assert.is((await approval(h, id)).status, "pending");
  assert.is(runsOf(id).length, 0);
  // A configured approver, however spelled, is stored under the configured spelling.
  const res = await decide(h, id, { status: "approved", decidedBy: "ＦＲＩＧＧ\u200b" });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.approval.decidedBy, "frigg");
  assert.is(res.body.approval.approver, "frigg");
  assert.equal(runsOf(id).map((r) => r.decision.decidedBy), ["frigg"]);
});

t("deciding needs the session token: 401 without or with a wrong one, nothing changes", async ({ h }) => {
  const id = await request(h, { text: "no token" });
  const none = await decide(h, id, { status: "approved" }, {});
  assert.is(none.status, 401);
  assert.is(none.body.error?.code, "SESSION_TOKEN_REQUIRED");
  for (const token of ["", "x", "0".repeat(64), h.token.slice(0, -1)]) {
    const wrong = await decide(h, id, { status: "approved" }, { headers: { "x-session-token": token } });
    assert.is(wrong.status, 401, `token ${token.length}`);
  }
  assert.is((await approval(h, id)).status, "pending");
  assert.is(runsOf(id).length, 0);
});

t("an expired approval cannot be approved and never runs; it shows as rejected and expired", async ({ h }) => {
  const id = await request(h, { text: "late" }, { expiresAt: new Date(Date.now() + 300).toISOString() });
  const before = await approval(h, id);
  assert.is(before.status, "pending");
  const expiresAt = before.expiresAt;
  assert.ok(expiresAt);
  await waitUntil(() => Date.now() > Date.parse(expiresAt) + 5, { label: "the expiry" });
  const res = await decide(h, id, { status: "approved" });
  assert.is(res.status, 409);
  assert.is(res.body.error?.code, "APPROVAL_EXPIRED");
  const a = await approval(h, id);
  assert.is(a.status, "rejected");
  assert.is(a.expired, true);
  assert.is(a.decidedBy, null);
  assert.is(a.resolvedAt, a.expiresAt);
  assert.is(a.executionStatus, "none");
  const list = await h.client.getApprovals();
  assert.not.ok(list.pending.some((p) => p.id === id));
  assert.ok(list.history.some((p) => p.id === id && p.expired));
  const reject = await decide(h, id, { status: "rejected" });
  assert.is(reject.status, 409);
  assert.is(reject.body.error?.code, "APPROVAL_EXPIRED");
  assert.is(runsOf(id).length, 0);
  const past = await h.json("/api/gate-test", { method: "POST", body: { payload: { text: "x" }, requestedBy: "odin", title: "t", expiresAt: new Date(Date.now() - 1000).toISOString() } });
  assert.is(past.status, 400);
  assert.is(past.body.error?.code, "VALIDATION_FAILED");
});

t("an executor that throws: recorded as failed, urgent notification, execution_failed event", async ({ h }) => {
  const id = await request(h, { text: "boom", fail: true });
  const res = await decide(h, id, { status: "approved" });
  assert.is(res.status, 200);
  assert.is(res.body.approval.status, "approved");
  assert.is(res.body.approval.executionStatus, "failed");
  assert.is(res.body.approval.executionError, "upstream refused the message");
  assert.is(res.body.approval.executionResult, null);
  assert.is(runsOf(id).length, 1);
  const notes = (await h.client.getNotifications({ query: { limit: 500 } })).notifications;
  const failure = notes.find((n) => n.title === "Approved action failed: Post to the network" && n.body === "upstream refused the message");
  assert.ok(failure);
  assert.is(failure.priority, "urgent");
  await waitUntil(() => events.some((e) => e.name === "approvals.approval.execution_failed" && (e.payload as { id?: string }).id === id), { label: "execution_failed event" });
  assert.ok(events.some((e) => e.name === "approvals.approval.execution_failed" && (e.payload as { id?: string }).id === id));
  const again = await decide(h, id, { status: "approved" });
  assert.is(again.status, 409);
  assert.is(runsOf(id).length, 1);
});

sqliteFileTest(t, "tampers with the stored payload in muster.db")("a payload changed in the database after the request is refused, never executed", async ({ h }) => {
  const id = await request(h, { text: "original" });
  // Fault injection: the stored payload is tampered with behind the server's back.
  withDb(h, (db) => db.prepare("UPDATE approvals_approvals SET payload = ? WHERE id = ?").run(JSON.stringify({ text: "tampered" }), id));
  const res = await decide(h, id, { status: "approved" });
  assert.is(res.status, 200);
  assert.is(res.body.approval.executionStatus, "failed");
  assert.match(String(res.body.approval.executionError), /PAYLOAD_INTEGRITY/);
  assert.is(runsOf(id).length, 0);
  const notes = (await h.client.getNotifications({ query: { limit: 500 } })).notifications;
  assert.ok(notes.some((n) => n.priority === "urgent" && /PAYLOAD_INTEGRITY/.test(n.body)));
  // A tampered hash is refused the same way.
  const id2 = await request(h, { text: "hash" });
  withDb(h, (db) => db.prepare("UPDATE approvals_approvals SET payloadHash = ? WHERE id = ?").run("0".repeat(64), id2));
  const res2 = await decide(h, id2, { status: "approved" });
  assert.is(res2.body.approval.executionStatus, "failed");
  assert.is(runsOf(id2).length, 0);
});

sqliteFileTest(t, "injects the fault with a SQLite trigger in muster.db")("a database failure during the decision fails closed: 500, nothing runs, still pending", async ({ h }) => {
  const id = await request(h, { text: "db down" });
  // Fault injection: every update of the row fails inside SQLite.
  withDb(h, (db) => db.exec("CREATE TRIGGER fault BEFORE UPDATE ON approvals_approvals BEGIN SELECT RAISE(ABORT, 'injected fault'); END"));
  try {
    const res = await decide(h, id, { status: "approved" });
    assert.is(res.status, 500);
    assert.is(res.body.error?.code, "INTERNAL_ERROR");
    assert.not.match(JSON.stringify(res.body), /injected|approvals_approvals|SQL/i);
  } finally {
    withDb(h, (db) => db.exec("DROP TRIGGER fault"));
  }
  assert.is((await approval(h, id)).status, "pending");
  assert.is(runsOf(id).length, 0);
});

sqliteFileTest(t, "leaves an execution interrupted by writing muster.db")("pending approvals survive a restart and nothing runs at start-up; interrupted executions become failed", async (ctx) => {
  const pendingId = await request(ctx.h, { text: "after restart" });
  const interruptedId = await request(ctx.h, { text: "interrupted" });
  // Simulate a crash in the middle of an execution.
  withDb(ctx.h, (db) =>
    db.prepare("UPDATE approvals_approvals SET status = 'approved', decidedBy = 'owner', resolvedAt = ?, executionStatus = 'running' WHERE id = ?").run(new Date().toISOString(), interruptedId),
  );
  const runsBefore = runs.length;
  ctx.h = await ctx.h.restart();
  await sleep(100); // a sleep on purpose: proves nothing runs at start-up within the window
  assert.is(runs.length, runsBefore, "nothing executed at start-up");
  assert.is((await approval(ctx.h, pendingId)).status, "pending");
  const interrupted = await approval(ctx.h, interruptedId);
  assert.is(interrupted.executionStatus, "failed");
  assert.match(String(interrupted.executionError), /not retried/);
  const res = await decide(ctx.h, pendingId, { status: "approved" });
  assert.is(res.status, 200);
  assert.is(res.body.approval.executionStatus, "succeeded");
  assert.is(runsOf(pendingId).length, 1);
  assert.is(runsOf(interruptedId).length, 0);
});

t("SSE clients see created/approved/executed events and never the payload", async ({ h }) => {
  const sse = await openSse(h.url);
  try {
    await sse.next((f) => f.data?.type === "connected", 2_000, "connected");
    const marker = "payload-marker-7f3a";
    // describe() only mentions `text`; the rest of the payload stays out of events and notifications.
    const id = await request(h, { text: "public summary", apiKey: marker });
    await decide(h, id, { status: "approved" });
    const named = (name: string) => sse.next((f) => f.data?.type === "event" && f.data.name === name && f.data.payload.id === id, 2_000, name);
    const created = await named("approvals.approval.created");
    assert.is(created.data.payload.status, "pending");
    assert.is((await named("approvals.approval.approved")).data.payload.decidedBy, "owner");
    assert.is((await named("approvals.approval.executed")).data.payload.executionStatus, "succeeded");
    await sse.next((f) => f.data?.name === "notifications.notification.created", 2_000, "notification event");
    assert.not.ok(sse.frames.some((f) => f.raw.includes(marker)), "the payload never reaches SSE");
  } finally {
    sse.close();
  }
});

t("approving an action whose plugin is gone is refused (409), rejecting still works", async (ctx) => {
  const id = await request(ctx.h, { text: "orphan" });
  const keep = await request(ctx.h, { text: "kept for later" });
  await ctx.h.stop();
  await withTestHost({ plugins, home: ctx.h.home, workspace: ctx.h.workspace, config }, async (without) => {
    const res = await decide(without, id, { status: "approved" });
    assert.is(res.status, 409);
    assert.is(res.body.error?.code, "APPROVAL_EXECUTOR_UNAVAILABLE");
    assert.is((await approval(without, id)).status, "pending");
    const rejected = await decide(without, id, { status: "rejected", reason: "plugin removed" });
    assert.is(rejected.status, 200);
    assert.is(rejected.body.approval.status, "rejected");
  });
  ctx.h = await startTestHost({ plugins, extraPlugins: [gateTestPlugin], home: ctx.h.home, workspace: ctx.h.workspace, config });
  assert.is((await approval(ctx.h, keep)).status, "pending");
  assert.is(runsOf(id).length + runsOf(keep).length, 0);
});

t("a gated kind cannot be requested through POST /api/approvals (it would run nothing)", async ({ h }) => {
  const before = (await h.json<ApiBody<"getApprovals">>("/api/approvals?limit=500")).body;
  const res = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { title: "t", type: KIND, requestedBy: "odin", context: "c", payload: { text: "x" } } });
  assert.is(res.status, 400);
  assert.is(res.body.error?.code, "APPROVAL_TYPE_GATED");
  const after = (await h.json<ApiBody<"getApprovals">>("/api/approvals?limit=500")).body;
  assert.is(after.pending.length, before.pending.length);
});

t.run();
