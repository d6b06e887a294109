// The agents plugin through HTTP against the fake gateway: records mirrored from the
// organisation file, health per the spec's state table, coverage, heartbeat and nudges,
// tools/sandbox changed only through an approval, and stuck-agent escalation.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../../helpers/wait.ts";
import { healthSettled, minutesAgo, ORG, refreshSessions, startAgentsRig, type AgentsRig } from "./agents-rig.ts";
import { decideApproval } from "@muster/plugin/testing";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ rig: AgentsRig }>("agents");
t.before(async (ctx) => {
  ctx.rig = await startAgentsRig();
});
t.after(async ({ rig }) => rig.close());

t("GET /api/agents mirrors the organisation file in camelCase with runtime fields; GET /api/agents/{id}; unknown → 404 AGENT_NOT_FOUND", async ({ rig }) => {
  const list = await rig.h.json<ApiBody<"getAgents">>("/api/agents");
  assert.is(list.status, 200);
  assert.equal(list.body.agents.map((a) => a.id), ["freya", "loki", "odin", "thor"]);
  const one = await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/loki");
  assert.is(one.status, 200);
  const loki = one.body.agent;
  assert.equal(
    { id: loki.id, name: loki.name, role: loki.role, tier: loki.tier, squad: loki.squad, model: loki.model, status: loki.status, reportsTo: loki.reportsTo, skills: loki.skills },
    { id: "loki", name: "loki", role: "developer", tier: 3, squad: "dev", model: "m-small", status: "idle", reportsTo: "thor", skills: ["typescript", "testing"] },
  );
  assert.equal(loki.tools, { allow: [], deny: [] });
  assert.is(loki.sandbox, "off");
  assert.ok(!("reports_to" in loki));
  const missing = await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/nobody");
  assert.is(missing.status, 404);
  assert.is(missing.body.error?.code, "AGENT_NOT_FOUND");
  for (const bad of ["..%2F..%2Fetc", "%00x", "a".repeat(200)]) {
    const r = await rig.h.json<ApiBody<"getAgentsById">>(`/api/agents/${bad}`);
    assert.ok(r.status === 400 || r.status === 404, `${bad}: ${r.status}`);
    assert.ok(r.body.error?.code === "VALIDATION_FAILED" || r.body.error?.code === "AGENT_NOT_FOUND");
  }
});

t("health follows the state table row by row, newest session wins, order active, stalled, stuck, idle", async ({ rig }) => {
  rig.gw.setSessions([
    { key: "agent:loki:main", agentId: "loki", updatedAt: minutesAgo(1), model: "m-small" },
    { key: "agent:loki:other", agentId: "loki", updatedAt: minutesAgo(50) },
    { key: "agent:freya:main", agentId: "freya", updatedAt: minutesAgo(3) },
    { key: "agent:thor:main", agentId: "thor", updatedAt: minutesAgo(10) },
    { key: "agent:odin:main", agentId: "odin", updatedAt: minutesAgo(20) },
    { key: "agent:main:main", agentId: "main", updatedAt: minutesAgo(45) },
  ]);
  const body = await refreshSessions(rig, (b) => (b.agents.find((a) => a.id === "loki")?.sessionCount === 2 ? b : null));
  const by = Object.fromEntries(body.agents.map((a) => [a.id, a]));
  const { loki, freya, thor, odin, main } = by;
  assert.ok(loki && freya && thor && odin && main, "every agent has a health entry");
  assert.is(loki.state, "active");
  assert.is(freya.state, "idle");
  assert.is(thor.state, "stalled");
  assert.is(odin.state, "stuck");
  assert.is(main.state, "idle", "over 30 minutes idle is idle");
  assert.is(loki.sessionCount, 2);
  assert.ok(Math.abs(Number(loki.lastActivityMs) - minutesAgo(1)) < 60_000, "lastActivityMs is the newest session");
  assert.is(thor.idleMinutes, 10);
  assert.is(loki.model, "m-small");
  assert.equal(body.agents.map((a) => a.id), ["loki", "thor", "odin", "freya", "main"]);
  assert.is(body.gateway.state, "connected");
  // A session-less agent is idle with nulls.
  rig.gw.setSessions([]);
  const empty = await refreshSessions(rig, (b) => (b.agents.every((a) => a.sessionCount === 0) ? b : null));
  const idle = empty.agents.find((a) => a.id === "loki");
  assert.ok(idle, "loki has a health entry");
  assert.equal({ state: idle.state, lastActivityMs: idle.lastActivityMs, idleMinutes: idle.idleMinutes }, { state: "idle", lastActivityMs: null, idleMinutes: null });
});

t("a sessions.changed event carrying the row updates health without a sessions.list", async ({ rig }) => {
  const before = rig.gw.requests("sessions.list").length;
  rig.gw.broadcast("sessions.changed", { sessionKey: "agent:freya:x", agentId: "freya", session: { key: "agent:freya:x", agentId: "freya", updatedAt: Date.now() } }, (c) => c.subscribedSessions);
  await healthSettled(rig, (b) => b.agents.find((a) => a.id === "freya")?.state === "active", "freya active");
  for (let i = 0; i < 20; i++) await rig.h.json<ApiBody<"getAgentsHealth">>("/api/agents/health");
  assert.is(rig.gw.requests("sessions.list").length, before, "health requests never ask the gateway");
});

t("coverage: shared skills first, then same tier; 400 without agent, 404 unknown", async ({ rig }) => {
  const r = await rig.h.json<ApiBody<"getAgentsCoverage">>("/api/agents/coverage?agent=loki");
  assert.is(r.status, 200);
  assert.equal(r.body.target.id, "loki");
  assert.equal(
    r.body.candidates.map((c) => [c.id, c.skillOverlap, c.sameTier, c.sameSquad]),
    [
      ["thor", 2, false, true],
      ["freya", 1, true, true],
    ],
  );
  assert.equal(r.body.candidates[0]?.sharedSkills, ["testing", "typescript"]);
  const review = await rig.h.json<ApiBody<"getAgentsCoverage">>("/api/agents/coverage?agent=odin");
  assert.equal(review.body.candidates.map((c) => c.id), ["thor"]);
  const missing = await rig.h.json<ApiBody<"getAgentsCoverage">>("/api/agents/coverage");
  assert.is(missing.status, 400);
  assert.is(missing.body.error?.code, "VALIDATION_FAILED");
  const unknown = await rig.h.json<ApiBody<"getAgentsCoverage">>("/api/agents/coverage?agent=nobody");
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error?.code, "AGENT_NOT_FOUND");
});

t("heartbeat: the health entry; nudge sends HEARTBEAT.md only to a stalled or stuck agent; unknown 404, bad body 400", async ({ rig }) => {
  rig.gw.setAgents([{ id: "main" }, { id: "thor" }, { id: "loki" }]);
  mkdirSync(join(rig.h.workspace, "agents/thor"), { recursive: true });
  writeFileSync(join(rig.h.workspace, "agents/thor/HEARTBEAT.md"), "THOR-HEARTBEAT: check your review queue");
  rig.gw.setSessions([
    { key: "agent:thor:main", agentId: "thor", updatedAt: minutesAgo(8) },
    { key: "agent:loki:main", agentId: "loki", updatedAt: minutesAgo(0.5) },
  ]);
  await refreshSessions(rig, (b) => b.agents.find((a) => a.id === "thor")?.state === "stalled");
  const plain = await rig.h.json<ApiBody<"postHeartbeat">>("/api/heartbeat", { method: "POST", body: { agentId: "thor" } });
  assert.is(plain.status, 200);
  assert.is(plain.body.agent.state, "stalled");
  assert.is(plain.body.nudged, false);
  assert.ok(!Number.isNaN(Date.parse(plain.body.checkedAt)));
  const sends = () => rig.gw.requests("chat.send").filter((f) => /HEARTBEAT/.test(f.params.message));
  assert.is(sends().length, 0, "no nudge without nudge: true");

  const nudged = await rig.h.json<ApiBody<"postHeartbeat">>("/api/heartbeat", { method: "POST", body: { agentId: "thor", nudge: true } });
  assert.is(nudged.status, 200);
  assert.is(nudged.body.nudged, true);
  await waitUntil(() => sends().length === 1, { timeoutMs: 5_000 });
  assert.is(sends()[0].params.message, "THOR-HEARTBEAT: check your review queue");
  assert.is(sends()[0].params.agentId, "thor");

  const active = await rig.h.json<ApiBody<"postHeartbeat">>("/api/heartbeat", { method: "POST", body: { agentId: "loki", nudge: true } });
  assert.is(active.body.nudged, false);
  assert.match(String(active.body.reason), /active/);
  assert.is(rig.gw.requests("chat.send").filter((f) => f.params.agentId === "loki").length, 0);

  const unknown = await rig.h.json<ApiBody<"postHeartbeat">>("/api/heartbeat", { method: "POST", body: { agentId: "nobody" } });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error?.code, "AGENT_NOT_FOUND");
  for (const body of [{}, { agentId: 42 }, { agentId: "thor", nudge: "yes" }, { agentId: "thor", extra: 1 }, { agentId: "../x" }]) {
    const r = await rig.h.json<ApiBody<"postHeartbeat">>("/api/heartbeat", { method: "POST", body });
    assert.is(r.status, 400, JSON.stringify(body));
    assert.is(r.body.error?.code, "VALIDATION_FAILED");
  }
});

t("tools and sandbox change only through an agents.configure approval, which patches OpenClaw's config", async ({ rig }) => {
  /** config.patch as OpenClaw receives it: the base hash and the raw JSON5 merge patch. */
  const patches: Array<{ baseHash?: string; raw: string }> = [];
  rig.gw.override("config.get", () => ({ hash: "base-hash-1", config: {} }));
  rig.gw.override("config.patch", (params) => (patches.push(params as { baseHash?: string; raw: string }), { ok: true }));
  const r = await rig.h.json<ApiBody<"patchAgentsById">>("/api/agents/loki", { method: "PATCH", body: { tools: { allow: ["read", "edit"], deny: ["exec"] }, sandbox: "container" } });
  assert.is(r.status, 202);
  assert.is(r.body.approval.command, "agents.configure", "the whole Approval record");
  const unchanged = (await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/loki")).body.agent;
  assert.equal([unchanged.tools, unchanged.sandbox], [{ allow: [], deny: [] }, "off"], "nothing changes before the approval");
  assert.is(patches.length, 0);

  const approve = await decideApproval(rig.h, String(r.body.approval.id), "approved");
  assert.is(approve.status, 200);
  assert.is(approve.body.approval.executionStatus, "succeeded");
  assert.is(patches.length, 1);
  const [patch] = patches;
  assert.ok(patch);
  assert.is(patch.baseHash, "base-hash-1");
  assert.equal(JSON.parse(patch.raw), { agents: { entries: { loki: { tools: { allow: ["read", "edit"], deny: ["exec"] }, sandbox: { mode: "all" } } } } });
  const after = (await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/loki")).body.agent;
  assert.equal([after.tools, after.sandbox], [{ allow: ["read", "edit"], deny: ["exec"] }, "container"]);

  // A rejected request changes nothing.
  const second = await rig.h.json<ApiBody<"patchAgentsById">>("/api/agents/loki", { method: "PATCH", body: { sandbox: "off" } });
  await decideApproval(rig.h, String(second.body.approval.id), "rejected", { reason: "no" });
  assert.is((await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/loki")).body.agent.sandbox, "container");
  assert.is(patches.length, 1);

  const same = await rig.h.json<ApiBody<"patchAgentsById">>("/api/agents/loki", { method: "PATCH", body: { sandbox: "container" } });
  assert.is(same.status, 409);
  assert.is(same.body.error?.code, "AGENT_CONFIG_UNCHANGED");
  const unknown = await rig.h.json<ApiBody<"patchAgentsById">>("/api/agents/nobody", { method: "PATCH", body: { sandbox: "off" } });
  assert.is(unknown.status, 404);
  for (const body of [{}, { sandbox: "docker" }, { tools: { allow: ["rm -rf"], deny: [] } }, { tools: { allow: [] } }, { status: "busy" }]) {
    const bad = await rig.h.json<ApiBody<"patchAgentsById">>("/api/agents/loki", { method: "PATCH", body });
    assert.is(bad.status, 400, JSON.stringify(body));
    assert.is(bad.body.error?.code, "VALIDATION_FAILED");
  }
  rig.gw.override("config.get", undefined);
  rig.gw.override("config.patch", undefined);
});

t("an approved change that OpenClaw refuses leaves the record as it was (execution failed)", async ({ rig }) => {
  rig.gw.override("config.get", () => ({ hash: "h" }));
  rig.gw.failWith("config.patch", { code: "INVALID_REQUEST", message: "config changed since baseHash" });
  const r = await rig.h.json<ApiBody<"patchAgentsById">>("/api/agents/freya", { method: "PATCH", body: { sandbox: "container" } });
  assert.is(r.status, 202);
  const approve = await decideApproval(rig.h, String(r.body.approval.id), "approved");
  assert.is(approve.body.approval.executionStatus, "failed");
  assert.is((await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/freya")).body.agent.sandbox, "off");
  rig.gw.override("config.get", undefined);
  rig.gw.override("config.patch", undefined);
});

t("editing the organisation file adds, removes and updates records", async ({ rig }) => {
  const orgPath = join(rig.h.workspace, "company/org_structure.yaml");
  const edited = readFileSync(orgPath, "utf8")
    .replace("    freya: {id: freya, tier: 3, role: developer, model: m-small, squad: dev, reports_to: thor, skills: [typescript]}\n", "")
    .replace("role: developer, model: m-small, squad: dev, reports_to: thor, skills: [typescript, testing]", "role: tester, model: m-small, squad: dev, reports_to: thor, skills: [testing]")
    .concat("    sif: {id: sif, tier: 3, role: writer, model: m-small, squad: null, skills: [docs]}\n");
  writeFileSync(orgPath, edited);
  await waitUntil(async () => (await rig.h.json<ApiBody<"getAgents">>("/api/agents")).body.agents.map((a) => a.id).join() === "loki,odin,sif,thor", { timeoutMs: 10_000, label: "records follow the file" });
  const loki = (await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/loki")).body.agent;
  assert.is(loki.role, "tester");
  assert.equal(loki.skills, ["testing"]);
  assert.is(loki.sandbox, "container", "runtime fields survive a re-sync");
  assert.is((await rig.h.json<ApiBody<"getAgentsById">>("/api/agents/freya")).status, 404);
  writeFileSync(orgPath, ORG);
  await waitUntil(async () => (await rig.h.json<ApiBody<"getAgents">>("/api/agents")).body.agents.length === 4, { timeoutMs: 10_000 });
});

t("every agent is offline while the gateway is down", async ({ rig }) => {
  await rig.gw.stop();
  const body = await waitUntil(async () => {
    const b = (await rig.h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).body;
    return b.gateway.state !== "connected" && b.agents.every((a) => a.state === "offline") ? b : null;
  }, { timeoutMs: 5_000, label: "all offline" });
  assert.ok(body.agents.length >= 4);
});

t.run();
