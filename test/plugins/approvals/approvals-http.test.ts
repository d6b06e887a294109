// The approval queue through HTTP: DESIGN §5 mapping, list shape and limits, the state
// table, and the bad inputs of group C (each refused with nothing changed).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PluginDefinition } from "@muster/plugin";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { notificationsPlugin } from "../../../plugins/notifications/index.ts";
import { approvalsPlugin } from "../../../plugins/approvals/index.ts";
import { startTestHost, removeHome, withTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

const plugins: PluginDefinition[] = [activitiesPlugin, notificationsPlugin, approvalsPlugin];
const t = suite<{ h: TestHost }>("approvals http");

const base = { title: "Deploy v2", type: "deploy", requestedBy: "odin", context: "All tests green" };
async function create(h: TestHost, body: Record<string, unknown> = {}) {
  const res = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: { ...base, ...body } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.approval;
}
const snapshot = async (h: TestHost) => JSON.stringify((await h.json<ApiBody<"getApprovals">>("/api/approvals?limit=500")).body);

t.before(async (ctx) => {
  ctx.h = await startTestHost({ plugins, config: { owner: "daniel", approvers: ["frigg", "odın"] } });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("POST maps title/type/context per DESIGN §5 and returns 201 {ok, approval}, always pending", async ({ h }) => {
  const res = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: base });
  assert.is(res.status, 201);
  assert.is(res.body.ok, true);
  const a = res.body.approval;
  assert.match(a.id, /^[0-9a-f-]{36}$/);
  assert.is(a.taskId, "Deploy v2");
  assert.is(a.title, "Deploy v2");
  assert.is(a.command, "deploy");
  assert.is(a.context, "All tests green");
  assert.is(a.requestedBy, "odin");
  assert.is(a.approver, "daniel");
  assert.is(a.status, "pending");
  assert.is(a.reason, null);
  assert.is(a.resolvedAt, null);
  assert.is(a.decidedBy, null);
  assert.is(a.gated, false);
  assert.is(a.payload, null);
  assert.is(a.payloadHash, null);
  assert.is(a.executionStatus, "none");
  assert.match(a.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const withTask = await create(h, { taskId: "task-42", approver: "frigg", payload: { branch: "main", n: [1, 2] } });
  assert.is(withTask.taskId, "task-42");
  assert.is(withTask.approver, "frigg");
  assert.equal(withTask.payload, { branch: "main", n: [1, 2] });
  assert.match(String(withTask.payloadHash), /^[0-9a-f]{64}$/);
  const notes = (await h.json<ApiBody<"getNotifications">>("/api/notifications")).body.notifications;
  const note = notes.find((n) => n.title === "Approval requested: Deploy v2");
  assert.ok(note);
  assert.is(note.priority, "high");
  const acts = (await h.json<ApiBody<"getActivities">>("/api/activities?action=approval_requested")).body;
  assert.ok(acts.some((x) => x.target === a.id && x.agentId === "odin"));
});

t("PATCH approves or rejects, sets resolvedAt and moves the item to history", async ({ h }) => {
  const a = await create(h, { title: "A" });
  const b = await create(h, { title: "B" });
  const approved = await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${a.id}`, { method: "PATCH", body: { status: "approved", reason: "ok" }, session: true });
  assert.is(approved.status, 200);
  assert.is(approved.body.ok, true);
  assert.is(approved.body.approval.status, "approved");
  assert.is(approved.body.approval.decidedBy, "daniel");
  assert.is(approved.body.approval.approver, "daniel");
  assert.is(approved.body.approval.executionStatus, "none");
  assert.ok(approved.body.approval.resolvedAt && approved.body.approval.resolvedAt >= approved.body.approval.createdAt);
  const rejected = await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${b.id}`, { method: "PATCH", body: { status: "rejected", reason: "too risky", decidedBy: "frigg" }, session: true });
  assert.is(rejected.body.approval.status, "rejected");
  assert.is(rejected.body.approval.reason, "too risky");
  assert.is(rejected.body.approval.approver, "frigg");
  assert.is(rejected.body.approval.expired, false);
  const list = await h.json<ApiBody<"getApprovals">>("/api/approvals");
  assert.is(list.body.ok, true);
  assert.not.ok(list.body.pending.some((p) => p.id === a.id || p.id === b.id));
  assert.equal(list.body.history.slice(0, 2).map((p) => p.id), [b.id, a.id]);
  const conflict = await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${a.id}`, { method: "PATCH", body: { status: "rejected" }, session: true });
  assert.is(conflict.status, 409);
  assert.is(conflict.body.error?.code, "APPROVAL_ALREADY_RESOLVED");
});

t("GET lists pending and history newest first; history honours limit (default 50, max 500)", async ({ h }) => {
  const created = [];
  for (let i = 0; i < 3; i++) created.push(await create(h, { title: `P${i}` }));
  const list = await h.json<ApiBody<"getApprovals">>("/api/approvals");
  const pendingIds = list.body.pending.map((p) => p.id);
  assert.equal(pendingIds.slice(0, 3), created.map((c) => c.id).reverse());
  for (let i = 0; i < 55; i++) {
    const c = await create(h, { title: `H${i}` });
    await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${c.id}`, { method: "PATCH", body: { status: i % 2 ? "approved" : "rejected" }, session: true });
  }
  assert.is((await h.json<ApiBody<"getApprovals">>("/api/approvals")).body.history.length, 50);
  assert.is((await h.json<ApiBody<"getApprovals">>("/api/approvals?limit=3")).body.history.length, 3);
  assert.is((await h.json<ApiBody<"getApprovals">>("/api/approvals?limit=3")).body.history[0]?.title, "H54");
  assert.ok((await h.json<ApiBody<"getApprovals">>("/api/approvals?limit=500")).body.history.length >= 57);
  for (const q of ["limit=0", "limit=501", "limit=-1", "limit=abc", "limit=1e309", "status=pending"]) {
    const res = await h.json<ApiBody<"getApprovals">>(`/api/approvals?${q}`);
    assert.is(res.status, 400, q);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", q);
  }
});

t("POST refuses bad bodies, a status field and read-only fields with 400; nothing is created", async ({ h }) => {
  const before = await snapshot(h);
  const cases: [unknown, string][] = [
    [{}, "empty"],
    [{ ...base, status: "approved" }, "status (read-only)"],
    [{ ...base, status: "pending" }, "status even pending"],
    [{ ...base, id: "mine" }, "id"],
    [{ ...base, resolvedAt: new Date().toISOString() }, "resolvedAt"],
    [{ ...base, decidedBy: "me" }, "decidedBy"],
    [{ ...base, executionStatus: "succeeded" }, "executionStatus"],
    [{ ...base, title: 42 }, "title number"],
    [{ ...base, title: null }, "title null"],
    [{ ...base, title: "" }, "title empty"],
    [{ ...base, title: "x".repeat(501) }, "title too long"],
    [{ title: "t", requestedBy: "o", context: "c" }, "type missing"],
    [{ title: "t", type: "x", context: "c" }, "requestedBy missing"],
    [{ title: "t", type: "x", requestedBy: "o" }, "context missing"],
    [{ ...base, context: 7 }, "context number"],
    [{ ...base, approver: "" }, "approver empty"],
    [{ ...base, requestedBy: "   " }, "requestedBy blank"],
    [{ ...base, expiresAt: "tomorrow" }, "expiresAt not a date"],
    [{ ...base, expiresAt: new Date(Date.now() - 60_000).toISOString() }, "expiresAt in the past"],
    [{ ...base, __proto__: { isAdmin: true }, extra: 1 }, "unknown field"],
    [[], "array"],
    [null, "null"],
    ["text", "string"],
  ];
  for (const [body, label] of cases) {
    const res = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    assert.is(res.status, 400, label);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", label);
    assert.not.ok(JSON.stringify(res.body).includes("    at "), `${label}: no stack`);
  }
  const proto = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: '{"__proto__":{"isAdmin":true},"title":"t","type":"x","requestedBy":"o","context":"c"}', headers: { "content-type": "application/json" } });
  assert.ok(proto.status === 400 || proto.status === 201);
  assert.is(({} as { isAdmin?: unknown }).isAdmin, undefined, "Object.prototype was not polluted");
  if (proto.status === 201) await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${proto.body.approval.id}`, { method: "PATCH", body: { status: "rejected" }, session: true });
  const malformed = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: '{"title":', headers: { "content-type": "application/json" } });
  assert.is(malformed.body.error?.code, "INVALID_JSON");
  const plain = await h.json<ApiBody<"postApprovals">>("/api/approvals", { method: "POST", body: "title=x", headers: { "content-type": "text/plain" } });
  assert.is(plain.status, 415);
  if (proto.status === 400) assert.is(await snapshot(h), before);
});

t("PATCH bad input: invalid status, non-string reason, unknown fields → 400; unknown id → 404; nothing changes", async ({ h }) => {
  const a = await create(h, { title: "bad input target" });
  const before = await snapshot(h);
  const cases: [unknown, string][] = [
    [{}, "status missing"],
    [{ status: "pending" }, "back to pending"],
    [{ status: "APPROVED" }, "wrong case"],
    [{ status: "maybe" }, "unknown status"],
    [{ status: "expired" }, "expired is not a decision"],
    [{ status: 1 }, "number"],
    [{ status: null }, "null"],
    [{ status: ["approved"] }, "array"],
    [{ status: "approved", reason: 42 }, "reason number"],
    [{ status: "approved", reason: null }, "reason null"],
    [{ status: "approved", reason: { text: "x" } }, "reason object"],
    [{ status: "approved", reason: "x".repeat(2001) }, "reason too long"],
    [{ status: "approved", decidedBy: "" }, "decidedBy empty"],
    [{ status: "approved", decidedBy: 5 }, "decidedBy number"],
    [{ status: "approved", approvedBy: "me" }, "mass assignment"],
    [{ status: "approved", executionStatus: "succeeded" }, "read-only field"],
    [{ decision: "approved" }, "reference body shape"],
    [[], "array body"],
  ];
  for (const [body, label] of cases) {
    const res = await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${a.id}`, { method: "PATCH", body: JSON.stringify(body), headers: { "content-type": "application/json" }, session: true });
    assert.is(res.status, 400, label);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", label);
  }
  const unknown = await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${crypto.randomUUID()}`, { method: "PATCH", body: { status: "approved" }, session: true });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error?.code, "APPROVAL_NOT_FOUND");
  for (const id of ["..", "%2e%2e", "a%00b", "x".repeat(10_000), "1%27%20OR%201%3D1", "-1"]) {
    const res = await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${id}`, { method: "PATCH", body: { status: "approved" }, session: true });
    assert.ok([400, 404].includes(res.status), `${id.slice(0, 20)} -> ${res.status}`);
    const got = await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${id}`);
    assert.ok([400, 404].includes(got.status), `GET ${id.slice(0, 20)} -> ${got.status}`);
  }
  assert.is((await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${crypto.randomUUID()}`)).body.error?.code, "APPROVAL_NOT_FOUND");
  assert.is(await snapshot(h), before);
  assert.is((await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${a.id}`)).body.approval.status, "pending");
});

t("deciders are compared by exact configured name after normalisation: a configured look-alike is its own person", async ({ h }) => {
  // "odın" (dotless ı) is configured here; "odin" is not, and no case fold turns one into the other.
  const a = await create(h, { title: "look-alike" });
  for (const decidedBy of ["odin", "ODIN", "odİn"]) {
    const res = await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${a.id}`, { method: "PATCH", body: { status: "approved", decidedBy }, session: true });
    assert.is(res.status, 403, decidedBy);
    assert.is(res.body.error?.code, "APPROVAL_DECIDER_NOT_ALLOWED", decidedBy);
  }
  const res = await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${a.id}`, { method: "PATCH", body: { status: "approved", decidedBy: "ODın\u200b" }, session: true });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.approval.decidedBy, "odın", "stored as configured");
  // The owner is a decider under any spelling, and is stored as configured too.
  const b = await create(h, { title: "owner spelled oddly" });
  const owner = await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${b.id}`, { method: "PATCH", body: { status: "rejected", decidedBy: "ＤＡＮＩＥＬ" }, session: true });
  assert.is(owner.status, 200);
  assert.is(owner.body.approval.decidedBy, "daniel");
});

t("approvers come from MUSTER_APPROVERS (comma-separated) or muster.config.json; the environment wins", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-home-"));
  writeFileSync(join(home, "muster.config.json"), JSON.stringify({ approvers: ["fromfile"] }));
  const decideAs = async (h: TestHost, decidedBy: string) => {
    const a = await create(h, { title: `for ${decidedBy}` });
    return (await h.json<ApiBody<"patchApprovalsById">>(`/api/approvals/${a.id}`, { method: "PATCH", body: { status: "rejected", decidedBy }, session: true })).status;
  };
  try {
    await withTestHost({ plugins, home }, async (fromFile) => {
      assert.is(await decideAs(fromFile, "fromfile"), 200);
      assert.is(await decideAs(fromFile, "thor"), 403);
    });
    await withTestHost({ plugins, home, env: { MUSTER_APPROVERS: " thor , Sif," } }, async (fromEnv) => {
      assert.is(await decideAs(fromEnv, "thor"), 200);
      assert.is(await decideAs(fromEnv, "sif"), 200);
      assert.is(await decideAs(fromEnv, "fromfile"), 403, "the environment's list replaces the file's");
    });
  } finally {
    removeHome(home); // a home passed in is left by withTestHost
  }
});

t("POST and GET need no session token; DELETE is not a route", async ({ h }) => {
  const res = await h.json("/api/approvals", { method: "DELETE", session: true });
  assert.ok([404, 405].includes(res.status));
});

t("approvals survive a restart", async (ctx) => {
  const a = await create(ctx.h, { title: "survivor" });
  ctx.h = await ctx.h.restart();
  const list = await ctx.h.json<ApiBody<"getApprovals">>("/api/approvals");
  const found = list.body.pending.find((p) => p.id === a.id);
  assert.ok(found);
  assert.is(found.status, "pending");
});

t.run();
