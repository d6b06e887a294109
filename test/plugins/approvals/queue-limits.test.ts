// What requesters can make the queue hold and what a read costs (issue 8, items 4 and 5):
// lists are paged and carry no payloads, payloads and pending approvals per requester are
// capped (through POST and through the gate alike), and reads never write, so a database
// another process has locked cannot fail them.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { defineGatedAction, definePlugin, z, type PluginDefinition } from "@muster/plugin";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { notificationsPlugin } from "../../../plugins/notifications/index.ts";
import { approvalsPlugin } from "../../../plugins/approvals/index.ts";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { decideApproval } from "@muster/plugin/testing";
import type { ApiBody } from "@muster/plugin/testing";
import { sqliteFileTest, withDatabaseFile } from "../../helpers/database-file.ts";

const KIND = "limits-test.send";
const MAX_PENDING = 3;
const MAX_PAYLOAD = 16 * 1024;

const gatedPlugin = definePlugin({
  id: "limits-test",
  version: "1.0.0",
  host: "^1.0.0",
  dependsOn: ["approvals"],
  paths: ["/api/limits-test"],
  gatedActions: [defineGatedAction({ kind: KIND, deps: {}, create: () => ({ describe: () => "Send something", execute: async () => ({ sent: true }) }) })],
  routes(router, ctx) {
    router.post(
      "/api/limits-test",
      { summary: "Request the gated test action", status: 201, body: z.strictObject({ payload: z.json(), requestedBy: z.string() }) },
      async ({ body }) => ({ ok: true, ...(await ctx.gate.request(KIND, body.payload, { requestedBy: body.requestedBy, title: "Send" })) }),
    );
  },
});

const plugins: PluginDefinition[] = [activitiesPlugin, notificationsPlugin, approvalsPlugin, gatedPlugin];
const t = suite<{ h: TestHost }>("approvals: paging, caps, reads never write");

t.before(async (ctx) => {
  ctx.h = await startTestHost({
    plugins,
    config: { approvers: ["frigg"], pluginConfig: { approvals: { maxPendingPerRequester: MAX_PENDING, maxPayloadBytes: MAX_PAYLOAD } } },
  });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const post = (h: TestHost, requestedBy: string, extra: Record<string, unknown> = {}) =>
  h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { title: `from ${requestedBy}`, type: "deploy", requestedBy, context: "c", ...extra } });
const gated = (h: TestHost, requestedBy: string, payload: unknown = { n: 1 }) => h.json("/api/limits-test", { method: "POST", body: { payload, requestedBy } });
const reject = (h: TestHost, id: string) => decideApproval(h, id, "rejected");
const list = (h: TestHost, query: { pendingLimit?: number; pendingOffset?: number } = {}) => h.client.getApprovals({ query });
/** The host's database file, for fault injection only (see docs/testing.md). */
const withDb = <T>(h: TestHost, fn: Parameters<typeof withDatabaseFile<T>>[1]): T => withDatabaseFile(h.home, fn);
/** Rejects everything still pending, so each test starts from an empty queue. */
async function drain(h: TestHost) {
  for (let body = await list(h, { pendingLimit: 500 }); body.pending.length > 0; body = await list(h, { pendingLimit: 500 })) {
    for (const a of body.pending) assert.is((await reject(h, a.id)).status, 200);
  }
}

t("lists carry no payload or executor result, only the hash; one approval's GET carries them", async ({ h }) => {
  const payload = { big: "p".repeat(10_000), nested: [1, 2, 3] };
  const created = await post(h, "payload-owner", { payload });
  assert.is(created.status, 201);
  const id = created.body.approval.id;
  const gatedRes = await gated(h, "payload-owner", { text: "gated payload" });
  assert.is(gatedRes.status, 201);
  const body = await list(h);
  assert.is(body.ok, true);
  for (const item of [...body.pending, ...body.history]) {
    assert.not.ok("payload" in item, "no payload in list items");
    assert.not.ok("executionResult" in item, "no executor result in list items");
  }
  const item = body.pending.find((a) => a.id === id);
  assert.ok(item, "the new approval is listed");
  assert.match(String(item.payloadHash), /^[0-9a-f]{64}$/);
  assert.not.ok(JSON.stringify(body).includes("pppp"), "the payload text is nowhere in the list");
  const { approval: one } = await h.client.getApprovalsById({ id });
  assert.equal(one.payload, payload);
  assert.is(one.payloadHash, item.payloadHash);
  await drain(h);
});

t("pending is paged: pendingLimit (default 100, max 500) from pendingOffset, newest first, with pendingTotal", async ({ h }) => {
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const res = await post(h, `pager-${i}`);
    assert.is(res.status, 201);
    ids.push(res.body.approval.id);
  }
  const newestFirst = [...ids].reverse();
  const all = await list(h);
  assert.is(all.pendingTotal, 7);
  assert.equal(all.pending.map((a) => a.id), newestFirst);
  const first = await list(h, { pendingLimit: 3 });
  assert.is(first.pendingTotal, 7);
  assert.equal(first.pending.map((a) => a.id), newestFirst.slice(0, 3));
  const second = await list(h, { pendingLimit: 3, pendingOffset: 3 });
  assert.equal(second.pending.map((a) => a.id), newestFirst.slice(3, 6));
  const last = await list(h, { pendingLimit: 3, pendingOffset: 6 });
  assert.equal(last.pending.map((a) => a.id), newestFirst.slice(6));
  assert.equal((await list(h, { pendingOffset: 50 })).pending, []);
  for (const q of ["pendingLimit=0", "pendingLimit=501", "pendingLimit=x", "pendingOffset=-1", "pendingOffset=1.5", "pendingOffset=1e309"]) {
    const res = await h.json<ApiBody<"getApprovals">>(`/api/approvals?${q}`);
    assert.is(res.status, 400, q);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", q);
  }
  await drain(h);
});

t("a payload over the cap is refused with 413 APPROVAL_PAYLOAD_TOO_LARGE through POST and the gate; nothing is created", async ({ h }) => {
  const before = await list(h);
  // Counted in UTF-8 bytes of the JSON text: 6,000 three-byte characters are 18,000 bytes.
  for (const payload of [{ s: "x".repeat(MAX_PAYLOAD) }, { s: "€".repeat(6_000) }]) {
    const viaPost = await post(h, "big-sender", { payload });
    assert.is(viaPost.status, 413);
    assert.is(viaPost.body.error?.code, "APPROVAL_PAYLOAD_TOO_LARGE");
    const viaGate = await gated(h, "big-sender", payload);
    assert.is(viaGate.status, 413);
    assert.is(viaGate.body.error?.code, "APPROVAL_PAYLOAD_TOO_LARGE");
  }
  const after = await list(h);
  assert.is(after.pendingTotal, before.pendingTotal);
  // Just under the cap is accepted.
  const fits = await post(h, "big-sender", { payload: { s: "x".repeat(MAX_PAYLOAD - 100) } });
  assert.is(fits.status, 201);
  await drain(h);
});

sqliteFileTest(t, "moves an expiry into the past in muster.db")("a requester may have at most maxPendingPerRequester pending, however its name is spelled: 429 APPROVAL_PENDING_LIMIT", async ({ h }) => {
  for (let i = 0; i < MAX_PENDING; i++) assert.is((await (i % 2 ? gated(h, "scribe") : post(h, "scribe"))).status, 201);
  for (const spelling of ["scribe", "SCRIBE", "scribe\u200b", "ｓｃｒｉｂｅ", " s c r i b e "]) {
    const viaPost = await post(h, spelling);
    assert.is(viaPost.status, 429, JSON.stringify(spelling));
    assert.is(viaPost.body.error?.code, "APPROVAL_PENDING_LIMIT");
    const viaGate = await gated(h, spelling);
    assert.is(viaGate.status, 429, JSON.stringify(spelling));
    assert.is(viaGate.body.error?.code, "APPROVAL_PENDING_LIMIT");
  }
  assert.is((await list(h)).pendingTotal, MAX_PENDING, "nothing over the cap was created");
  // Another requester is not affected.
  assert.is((await post(h, "herald")).status, 201);
  // A decided approval frees a place.
  const [first, second] = (await list(h)).pending.filter((a) => a.requestedBy === "scribe");
  assert.ok(first && second, "two of scribe's approvals are pending");
  assert.is((await reject(h, first.id)).status, 200);
  assert.is((await post(h, "scribe")).status, 201);
  assert.is((await post(h, "scribe")).status, 429);
  // An expired approval does not count either (expiry moved into the past directly in the database).
  withDb(h, (db) => db.prepare("UPDATE approvals_approvals SET expiresAt = ? WHERE id = ?").run(new Date(Date.now() - 1000).toISOString(), second.id));
  assert.is((await post(h, "scribe")).status, 201);
  await drain(h);
});

t("concurrent requests cannot slip past the cap: exactly maxPendingPerRequester of 12 succeed", async ({ h }) => {
  const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? gated(h, "racer") : post(h, "racer"))));
  assert.is(results.filter((r) => r.status === 201).length, MAX_PENDING);
  assert.is(results.filter((r) => r.status === 429).length, 12 - MAX_PENDING);
  await drain(h);
});

sqliteFileTest(t, "holds the lock of muster.db")("reads never write: an expired approval reads as rejected/expired while the database is locked by another process", async ({ h }) => {
  const created = await post(h, "late", { expiresAt: new Date(Date.now() + 60_000).toISOString() });
  assert.is(created.status, 201);
  const id = created.body.approval.id;
  const expiresAt = new Date(Date.now() - 1000).toISOString();
  withDb(h, (db) => db.prepare("UPDATE approvals_approvals SET expiresAt = ? WHERE id = ?").run(expiresAt, id));
  // Another process holds the write lock for the whole of the reads.
  const locker = new BetterSqlite3(join(h.home, "muster.db"));
  try {
    locker.prepare("BEGIN IMMEDIATE").run();
    const one = await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${id}`);
    assert.is(one.status, 200, JSON.stringify(one.body));
    assert.is(one.body.approval.status, "rejected");
    assert.is(one.body.approval.expired, true);
    assert.is(one.body.approval.reason, "expired");
    assert.is(one.body.approval.decidedBy, null);
    assert.is(one.body.approval.resolvedAt, expiresAt);
    const all = await h.json<ApiBody<"getApprovals">>("/api/approvals");
    assert.is(all.status, 200, JSON.stringify(all.body));
    assert.not.ok(all.body.pending.some((a) => a.id === id));
    assert.is(all.body.pendingTotal, 0);
    const inHistory = all.body.history.find((a) => a.id === id);
    assert.ok(inHistory);
    assert.is(inHistory.expired, true);
  } finally {
    locker.prepare("ROLLBACK").run();
    locker.close();
  }
  // Nothing was written by the reads: the row is still pending in the database (the stored
  // status is the fact under test; the API deliberately answers the computed expiry instead).
  assert.is(withDb(h, (db) => (db.prepare("SELECT status FROM approvals_approvals WHERE id = ?").get(id) as { status: string }).status), "pending");
  // Deciding it is still refused as expired, and that (a write path) persists the expiry.
  const decided = await decideApproval(h, id, "approved");
  assert.is(decided.status, 409);
  assert.is(decided.body.error?.code, "APPROVAL_EXPIRED");
  assert.is(withDb(h, (db) => (db.prepare("SELECT status FROM approvals_approvals WHERE id = ?").get(id) as { status: string }).status), "rejected");
});

t.run();
