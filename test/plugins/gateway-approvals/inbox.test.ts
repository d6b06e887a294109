// The one inbox against the fake gateway: gateway approval requests become Muster approvals,
// are settled in the gateway from Muster, are closed in Muster when settled in the gateway,
// and survive restarts of either side; duplicates, races and bad events included.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../../helpers/wait.ts";
import { EXEC_REQUEST, approvalFor, approvalsFor, decide, startInboxRig, waitForGateway } from "./rig.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("gateway approvals: one inbox");

t("an exec request becomes one pending openclaw.exec approval holding exactly what the gateway asked; a duplicate event adds nothing", async () => {
  const rig = await startInboxRig();
  try {
    const raised = rig.gw.raiseApproval("exec", EXEC_REQUEST, { id: "exec-1" });
    const approval = await approvalFor(rig.h, "exec-1");
    // The same event again (a redelivery), and the same id on the list at reconnect.
    rig.gw.broadcast("exec.approval.requested", { id: raised.id, request: raised.request, createdAtMs: raised.createdAtMs, expiresAtMs: raised.expiresAtMs });
    rig.gw.closeAll(1012, "restart");
    await waitUntil(() => rig.gw.requests("exec.approval.list").length >= 2, { label: "reconcile after reconnect" });
    await waitForGateway(rig.h, "connected");
    assert.is((await approvalsFor(rig.h, "exec-1")).length, 1);
    assert.is(approval.status, "pending");
    assert.is(approval.command, "openclaw.exec");
    assert.is(approval.requestedBy, "main");
    assert.equal(approval.payload, { gatewayId: "exec-1", kind: "exec", request: EXEC_REQUEST });
    assert.ok(approval.title.includes("touch approved.txt"));
    assert.ok(approval.expiresAt, "the gateway's expiry is the approval's");
  } finally {
    await rig.close();
  }
});

t("approving in Muster resolves it allow-once in the gateway; rejecting resolves it deny", async () => {
  const rig = await startInboxRig();
  try {
    rig.gw.raiseApproval("exec", EXEC_REQUEST, { id: "yes" });
    rig.gw.raiseApproval("plugin", { title: "Install a skill", agentId: "helper", pluginId: "skills" }, { id: "plugin:no" });
    const yes = await approvalFor(rig.h, "yes");
    const no = await approvalFor(rig.h, "plugin:no");
    assert.is(no.command, "openclaw.plugin");
    const approved = await decide(rig.h, yes.id, "approved");
    assert.is(approved.status, 200, JSON.stringify(approved.body));
    assert.is(approved.body.approval.executionStatus, "succeeded");
    const rejected = await decide(rig.h, no.id, "rejected");
    assert.is(rejected.status, 200);
    await waitUntil(() => rig.gw.approvals.size === 0, { label: "both settled in the gateway" });
    const sent = rig.gw.requests("exec.approval.resolve").concat(rig.gw.requests("plugin.approval.resolve")).map((r) => [r.method, r.params]);
    assert.equal(sent, [
      ["exec.approval.resolve", { id: "yes", decision: "allow-once" }],
      ["plugin.approval.resolve", { id: "plugin:no", decision: "deny" }],
    ]);
    // A second decision is refused as for every approval.
    assert.is((await decide(rig.h, yes.id, "rejected")).body.error?.code, "APPROVAL_ALREADY_RESOLVED");
  } finally {
    await rig.close();
  }
});

t("settled in the gateway first: closed in Muster with that outcome, by openclaw, and cannot be decided again", async () => {
  const rig = await startInboxRig();
  try {
    rig.gw.raiseApproval("exec", EXEC_REQUEST, { id: "ui-deny" });
    rig.gw.raiseApproval("openclaw", { title: "Restart the gateway", agentId: "main" }, { id: "ui-allow" });
    const denied = await approvalFor(rig.h, "ui-deny");
    const allowed = await approvalFor(rig.h, "ui-allow");
    assert.is(allowed.command, "openclaw.approval");
    rig.gw.resolveApproval("ui-deny", "deny", "control-ui");
    rig.gw.resolveApproval("ui-allow", "allow-always", "control-ui");
    const closedDeny = await waitUntil(async () => {
      const a = (await rig.h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${denied.id}`)).body.approval;
      return a.status !== "pending" ? a : null;
    });
    assert.is(closedDeny.status, "rejected");
    assert.is(closedDeny.decidedBy, "openclaw");
    assert.ok(closedDeny.reason?.includes("deny in the OpenClaw gateway by control-ui"));
    const closedAllow = await waitUntil(async () => {
      const a = (await rig.h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${allowed.id}`)).body.approval;
      return a.status !== "pending" ? a : null;
    });
    assert.is(closedAllow.status, "approved");
    assert.is(closedAllow.executionStatus, "none", "nothing ran in Muster");
    const again = await decide(rig.h, denied.id, "approved");
    assert.is(again.status, 409);
    assert.is(again.body.error?.code, "APPROVAL_ALREADY_RESOLVED");
    assert.is(rig.gw.requests("exec.approval.resolve").length, 0, "Muster sent nothing back");
  } finally {
    await rig.close();
  }
});

t("decided in both places at once: exactly one outcome; the loser sees 409 or the gateway's error", async () => {
  const rig = await startInboxRig();
  try {
    for (let i = 0; i < 5; i++) {
      const id = `race-${i}`;
      rig.gw.raiseApproval("exec", EXEC_REQUEST, { id });
      const approval = await approvalFor(rig.h, id);
      const [res] = await Promise.all([decide(rig.h, approval.id, "approved"), Promise.resolve().then(() => rig.gw.resolveApproval(id, "deny"))]);
      const resolutions = rig.gw.approvalResolutions.filter((r) => r.id === id);
      assert.is(resolutions.length, 1, "the gateway settled it once");
      const final = await waitUntil(async () => {
        const a = (await rig.h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${approval.id}`)).body.approval;
        return a.status !== "pending" && a.executionStatus !== "running" ? a : null;
      });
      if (res.status === 409) {
        assert.is(res.body.error?.code, "APPROVAL_ALREADY_RESOLVED");
        assert.is(final.decidedBy, "openclaw");
      } else {
        assert.is(res.status, 200);
        assert.is(final.status, "approved");
        // Either Muster's allow-once reached the gateway first, or the gateway's error is recorded.
        if (resolutions[0]!.decision === "allow-once") assert.is(final.executionStatus, "succeeded");
        else assert.ok(/unknown or expired approval id/.test(final.executionError ?? ""), String(final.executionError));
      }
    }
  } finally {
    await rig.close();
  }
});

t("the gateway gone mid-decision: the approval records the failure; on reconnect the human's decision is sent again if still pending", async () => {
  const rig = await startInboxRig();
  try {
    rig.gw.raiseApproval("exec", EXEC_REQUEST, { id: "gone" });
    rig.gw.raiseApproval("exec", { ...EXEC_REQUEST, command: "rm -rf build" }, { id: "gone-deny" });
    const a = await approvalFor(rig.h, "gone");
    const b = await approvalFor(rig.h, "gone-deny");
    await rig.gw.stop({ graceful: false });
    await waitForGateway(rig.h, "down");
    const approved = await decide(rig.h, a.id, "approved");
    assert.is(approved.status, 200);
    assert.is(approved.body.approval.executionStatus, "failed");
    assert.ok(approved.body.approval.executionError);
    assert.is((await decide(rig.h, b.id, "rejected")).status, 200);
    await rig.gw.listen();
    await waitUntil(() => rig.gw.approvals.size === 0, { label: "decisions sent after reconnect" });
    assert.equal(rig.gw.approvalResolutions.map((r) => [r.id, r.decision]).sort(), [["gone", "allow-once"], ["gone-deny", "deny"]]);
  } finally {
    await rig.close();
  }
});

t("restart of Muster: requests raised or settled while it was away are reconciled on connect", async () => {
  const rig = await startInboxRig();
  let h = rig.h;
  try {
    rig.gw.raiseApproval("exec", EXEC_REQUEST, { id: "before" });
    rig.gw.raiseApproval("exec", EXEC_REQUEST, { id: "expires-away" });
    const before = await approvalFor(h, "before");
    const expiring = await approvalFor(h, "expires-away");
    await h.stop();
    rig.gw.raiseApproval("exec", { ...EXEC_REQUEST, command: "ls" }, { id: "while-away" });
    rig.gw.expireApproval("expires-away");
    h = await h.restart();
    const away = await approvalFor(h, "while-away");
    assert.is(away.status, "pending");
    assert.is((away.payload as { request: { command: string } }).request.command, "ls");
    const closed = await waitUntil(async () => {
      const x = (await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${expiring.id}`)).body.approval;
      return x.status !== "pending" ? x : null;
    });
    assert.is(closed.status, "rejected");
    assert.is(closed.decidedBy, "openclaw");
    assert.is((await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${before.id}`)).body.approval.status, "pending");
    assert.is((await approvalsFor(h, "before")).length, 1, "no second approval for a known request");
  } finally {
    // rig.close() stops the first host (already stopped) and the gateway; the restarted one is ours.
    if (h !== rig.h) await h.stop();
    await rig.close();
  }
});

t("auto-deny rules: a matching agent or kind is rejected by policy naming the rule and denied in the gateway; others wait for a human", async () => {
  const rig = await startInboxRig({ autoDeny: [{ name: "no scout shell", agents: ["scout"], kinds: ["exec"] }, { name: "no plugins", kinds: ["plugin"] }] });
  try {
    rig.gw.raiseApproval("exec", { ...EXEC_REQUEST, agentId: "scout" }, { id: "scout-exec" });
    rig.gw.raiseApproval("plugin", { title: "x", agentId: "main" }, { id: "plugin:main" });
    rig.gw.raiseApproval("exec", EXEC_REQUEST, { id: "main-exec" });
    await waitUntil(() => rig.gw.approvalResolutions.length === 2, { label: "two denials" });
    assert.equal(rig.gw.approvalResolutions.map((r) => [r.id, r.decision]).sort(), [["plugin:main", "deny"], ["scout-exec", "deny"]]);
    const scout = await approvalFor(rig.h, "scout-exec");
    assert.is(scout.status, "rejected");
    assert.is(scout.decidedBy, "policy");
    assert.is(scout.reason, 'auto-denied by rule "no scout shell"');
    assert.is((await approvalFor(rig.h, "plugin:main")).reason, 'auto-denied by rule "no plugins"');
    assert.is((await approvalFor(rig.h, "main-exec")).status, "pending");
  } finally {
    await rig.close();
  }
});

t("a rule that names neither agents nor kinds is refused at start", async () => {
  const { startTestHost } = await import("../../helpers/start-test-host.ts");
  let failed: unknown;
  try {
    const h = await startTestHost({ config: { pluginConfig: { "gateway-approvals": { autoDeny: [{ name: "everything" }] } } } });
    await h.stop();
  } catch (error) {
    failed = error;
  }
  assert.ok(failed, "start must fail");
  assert.ok(/gateway-approvals/.test(String((failed as Error).message)), String(failed));
});

t("digest: one notification when more than the threshold wait, at most one per interval", async () => {
  const rig = await startInboxRig({ digest: { threshold: 2, intervalMs: 60_000 } });
  try {
    const digests = async () => (await rig.h.json<ApiBody<"getNotifications">>("/api/notifications?limit=500")).body.notifications.filter((n) => n.type === "approvals.digest");
    for (const id of ["d1", "d2"]) {
      rig.gw.raiseApproval("exec", EXEC_REQUEST, { id });
      await approvalFor(rig.h, id);
    }
    assert.is((await digests()).length, 0, "two waiting is not more than two");
    for (const id of ["d3", "d4", "d5"]) {
      rig.gw.raiseApproval("exec", EXEC_REQUEST, { id });
      await approvalFor(rig.h, id);
    }
    const sent = await digests();
    assert.is(sent.length, 1);
    assert.is(sent[0]?.title, "3 OpenClaw approval requests are waiting");
  } finally {
    await rig.close();
  }
});

t("bad events: no id, no request object, unknown resolved ids and unknown decisions change nothing", async () => {
  const rig = await startInboxRig();
  try {
    rig.gw.broadcast("exec.approval.requested", { request: EXEC_REQUEST });
    rig.gw.broadcast("exec.approval.requested", { id: "no-request", request: "touch x" });
    rig.gw.broadcast("exec.approval.requested", null);
    rig.gw.broadcast("exec.approval.resolved", { id: "never-seen", decision: "deny" });
    rig.gw.broadcast("plugin.approval.resolved", { id: 42 });
    // A well-formed request after them proves the bad ones were read (events arrive in order) and dropped.
    rig.gw.raiseApproval("exec", EXEC_REQUEST, { id: "good" });
    await approvalFor(rig.h, "good");
    const list = (await rig.h.json<ApiBody<"getApprovals">>("/api/approvals?limit=200&pendingLimit=200")).body;
    const ours = [...list.pending, ...list.history].filter((a) => a.command?.startsWith("openclaw."));
    assert.is(ours.length, 1);
  } finally {
    await rig.close();
  }
});

t.run();
