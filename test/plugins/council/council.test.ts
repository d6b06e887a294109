// Council sessions end to end against the fake gateway: rounds of positions, the moderator's
// proposal, JSON votes (garbage ones as abstain), the outcome, the memo in the workspace, the
// pending council.decision approval and its ratification, events on the SSE stream, the rate
// limit, failures mid-way, bad inputs, and sessions cut short by a stop.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { openSse } from "../../helpers/sse-client.ts";
import { untilEveryInstance, waitUntil } from "../../helpers/wait.ts";
import { scaled } from "../../helpers/time-scale.ts";
import { gate, startRig, type Rig } from "../chat/chat-helpers.ts";
import type { FakeReplyHook } from "../../helpers/fake-gateway.ts";
import { type ApiBody, decideApproval } from "@muster/plugin/testing";

const t = suite("council");

const VOTE_ASK = "Vote on the proposal";
const MODERATOR_ASK = "the moderator of a council";

/** Positions name their author and round; the moderator proposes; votes come from `votes`. */
function councilHook(votes: Record<string, string>): FakeReplyHook {
  return (agentId, message) => {
    if (message.includes(VOTE_ASK)) return votes[agentId] ?? '{"vote":"abstain","confidence":0.1,"reason":"no view"}';
    if (message.includes(MODERATOR_ASK)) return "PROPOSAL: ship the beta on Friday with a rollback plan";
    const round = /round (\d) of/.exec(message)?.[1];
    return `${agentId} position in round ${round}`;
  };
}

const start = (rig: Rig, body: unknown) => rig.h.json<ApiBody<"postCouncilSession">>("/api/council/session", { method: "POST", body });
const session = async (rig: Rig, id: string) => (await rig.h.json<ApiBody<"getCouncilSessionById">>(`/api/council/session/${id}`)).body.session;
const finished = (rig: Rig, id: string, timeoutMs = 5_000) =>
  waitUntil(async () => {
    const s = await session(rig, id);
    return s.status !== "running" ? s : null;
  }, { timeoutMs, label: `council ${id} finished` });

/** Writes the organisation file and waits until the crew has it (the watcher reports the change; the scan may still run). */
async function writeOrg(rig: Rig): Promise<void> {
  mkdirSync(join(rig.h.workspace, "company"), { recursive: true });
  writeFileSync(join(rig.h.workspace, "company", "org_structure.yaml"), "org:\n  owner: daniel\n  agents:\n    main:\n      role: chief_orchestrator\n    helper:\n      role: product_lead\n");
  await waitUntil(async () => (await rig.h.json<ApiBody<"getAgents">>("/api/agents")).body.agents.some((a) => a.id === "helper" && a.role === "product_lead"), { timeoutMs: scaled(10_000), label: "the crew read the organisation file" });
}

t("end to end: positions per round, proposal, votes, adopted, memo, pending council.decision approval, ratification, SSE events", async () => {
  const rig = await startRig();
  try {
    await writeOrg(rig);
    rig.gw.onChat(councilHook({
      main: '{"vote":"support","confidence":0.9,"reason":"ready"}',
      helper: 'Sure. ```json\n{"vote": "Support", "confidence": 85, "reason": "tests are green"}\n```',
      scout: '{"vote":"oppose","confidence":0.4,"reason":"docs missing"}',
    }));
    const sse = await openSse(rig.h.url);
    try {
      const res = await start(rig, { topic: "Ship the beta on Friday?", agents: ["main", "helper", "scout"], rounds: 2 });
      assert.is(res.status, 202, JSON.stringify(res.body));
      assert.is(res.body.ok, true);
      const created = res.body.session;
      assert.is(created.status, "running");
      assert.equal([created.agents, created.rounds, created.positions, created.votes, created.proposal], [["main", "helper", "scout"], 2, [], [], null]);
      const done = await finished(rig, created.id);
      assert.is(done.status, "completed", done.error ?? undefined);
      assert.equal(done.positions.map((p) => [p.round, p.agentId, p.text]), [
        [1, "main", "main position in round 1"],
        [1, "helper", "helper position in round 1"],
        [1, "scout", "scout position in round 1"],
        [2, "main", "main position in round 2"],
        [2, "helper", "helper position in round 2"],
        [2, "scout", "scout position in round 2"],
      ]);
      assert.is(done.proposal, "PROPOSAL: ship the beta on Friday with a rollback plan");
      assert.equal(done.votes, [
        { agentId: "main", vote: "support", confidence: 0.9, reason: "ready" },
        { agentId: "helper", vote: "support", confidence: 0.85, reason: "tests are green" },
        { agentId: "scout", vote: "oppose", confidence: 0.4, reason: "docs missing" },
      ]);
      assert.is(done.outcome, "adopted");
      assert.ok(done.completedAt);

      // What the agents were sent: council session keys, roles, round 2 sees all of round 1.
      const sends = rig.gw.requests("chat.send").map((r) => r.params);
      assert.is(sends.length, 6 + 1 + 3);
      assert.ok(sends.every((s) => s.sessionKey === `agent:${s.agentId}:council-${created.id}`));
      assert.ok(sends[0].message.includes("chief_orchestrator"));
      assert.ok(sends[1].message.includes("product_lead"));
      assert.not.ok(sends[0].message.includes("main position in round 1"));
      for (const agent of ["main", "helper", "scout"]) assert.ok(sends[3].message.includes(`${agent} position in round 1`), `round 2 sees ${agent}`);
      assert.ok(sends[6].message.includes("scout position in round 2"), "the moderator sees the final positions");
      assert.is(sends[6].agentId, "main");
      assert.ok(sends[7].message.includes("PROPOSAL: ship the beta"));

      // The memo.
      const date = new Date().toISOString().slice(0, 10);
      assert.is(done.memoPath, `company/knowledge_base/council/${date}-ship-the-beta-on-friday.md`);
      assert.ok(done.memoPath);
      const memo = readFileSync(join(rig.h.workspace, done.memoPath), "utf8");
      assert.ok(memo.startsWith("# Council memo: Ship the beta on Friday?\n"));
      assert.ok(memo.includes("- Outcome: adopted (support 2, oppose 1, abstain 0)"));
      assert.ok(memo.includes("### Round 2\n\n#### main\n\nmain position in round 2"));
      assert.ok(memo.includes("## Proposal (main)\n\nPROPOSAL: ship the beta on Friday with a rollback plan"));
      assert.ok(memo.includes("| scout | oppose | 0.40 | docs missing |"));

      // The pending approval, then its ratification.
      const approval = (await rig.h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${done.approvalId}`)).body.approval;
      assert.equal([approval.status, approval.command, approval.gated, approval.requestedBy], ["pending", "council.decision", true, "council"]);
      assert.equal((approval.payload as { sessionId?: string; memoPath?: string }).sessionId, created.id);
      assert.equal((approval.payload as { sessionId?: string; memoPath?: string }).memoPath, done.memoPath);
      assert.ok(done.approvalId);
      const decided = await decideApproval(rig.h, done.approvalId, "approved");
      assert.is(decided.status, 200, JSON.stringify(decided.body));
      const ratified = await waitUntil(async () => {
        const s = await session(rig, created.id);
        return s.ratifiedAt ? s : null;
      }, { label: "ratified" });
      assert.is(ratified.ratifiedBy, "owner");
      const activities = (await rig.h.json<ApiBody<"getActivities">>("/api/activities?limit=100")).body;
      assert.ok(activities.some((a) => a.action === "council_decision_ratified" && a.agentId === "council"));

      // Progress on the SSE stream, in order.
      await sse.next((f) => f.data?.name === "council.session.ratified", 3_000, "ratified event");
      const names = sse.frames.filter((f) => f.data?.type === "event" && String(f.data.name).startsWith("council.")).map((f) => f.data.name);
      assert.equal(names, [
        "council.session.created",
        ...Array(6 + 1 + 3).fill("council.session.progressed"),
        "council.session.completed",
        "council.session.ratified",
      ]);
    } finally {
      sse.close();
    }
    // GET lists newest first.
    const second = await waitUntil(async () => {
      const res = await start(rig, { topic: "Ship the beta on Friday?", agents: ["helper", "main"], rounds: 1 });
      return res.status === 202 ? res.body.session : null;
    }, { label: "second council accepted" });
    const secondDone = await finished(rig, second.id);
    // Same topic, same day: a new memo beside the first, never over it.
    assert.match(secondDone.memoPath ?? "", /-ship-the-beta-on-friday-2\.md$/);
    const list = (await rig.h.json<ApiBody<"getCouncilSession">>("/api/council/session")).body.sessions;
    assert.is(list.length, 2);
    assert.is(list[0]?.id, second.id);
    assert.ok(list[0]!.createdAt >= list[1]!.createdAt);
  } finally {
    await rig.close();
  }
});

t("garbage instead of votes: abstain with the reply as the reason (clipped); no consensus, no approval, memo written", async () => {
  const rig = await startRig();
  try {
    rig.gw.onChat(councilHook({
      main: "I think yes!! definitely",
      helper: '{"vote":"maybe","confidence":2}',
      scout: `{"vote": "support", "confidence": "high"} and ${"z".repeat(5_000)}`,
    }));
    const res = await start(rig, { topic: "Rename the product to ../../etc/passwd Café", agents: ["main", "helper", "scout"], rounds: 1 });
    const done = await finished(rig, res.body.session.id);
    assert.is(done.status, "completed", done.error ?? undefined);
    assert.equal(done.votes.map((v) => [v.agentId, v.vote, v.confidence]), [
      ["main", "abstain", 0],
      ["helper", "abstain", 0],
      ["scout", "support", 0],
    ]);
    assert.ok(done.votes[0]!.reason.includes("I think yes!! definitely"));
    assert.ok(done.votes[1]!.reason.includes("maybe"));
    // One support, no oppose: supports outnumber opposes.
    assert.is(done.outcome, "adopted");
    // The slug keeps the memo inside its directory.
    assert.match(done.memoPath ?? "", /^company\/knowledge_base\/council\/\d{4}-\d\d-\d\d-rename-the-product-to-etc-passwd-cafe\.md$/);
    assert.ok(done.memoPath);
    assert.ok(existsSync(join(rig.h.workspace, done.memoPath)));

    rig.gw.onChat(councilHook({ main: "no idea", helper: "", scout: "🤷".repeat(400) }));
    const res2 = await waitUntil(async () => {
      const r = await start(rig, { topic: "Garbage only", agents: ["main", "helper", "scout"], rounds: 1 });
      return r.status === 202 ? r : null;
    }, { label: "accepted" });
    const done2 = await finished(rig, res2.body.session.id);
    assert.is(done2.outcome, "no_consensus");
    assert.is(done2.approvalId, null);
    assert.ok(done2.votes.every((v) => v.vote === "abstain" && v.reason.length <= 500));
    assert.ok(done2.votes[1]!.reason.includes("(empty reply)"));
    assert.not.ok(/[\uD800-\uDBFF]$/.test(done2.votes[2]!.reason), "no half surrogate");
    assert.ok(done2.memoPath);
    assert.ok(readFileSync(join(rig.h.workspace, done2.memoPath), "utf8").includes("- Outcome: no_consensus (support 0, oppose 0, abstain 3)"));
    const pending = (await rig.h.json<ApiBody<"getApprovals">>("/api/approvals")).body.pending.filter((a) => a.command === "council.decision");
    assert.is(pending.length, 1);
  } finally {
    await rig.close();
  }
});

t("rate limit: one running council holds the slot (429 with Retry-After); freed when it ends; 3 starts per minute", async () => {
  const rig = await startRig();
  try {
    const held = gate();
    const votes = councilHook({});
    rig.gw.onChat(async (agentId, message, key, ctx) => {
      if (message.includes("Hold")) await held.promise;
      return votes(agentId, message, key, ctx);
    });
    const first = await start(rig, { topic: "Hold the line", agents: ["main", "helper"], rounds: 1 });
    assert.is(first.status, 202);
    const busy = await start(rig, { topic: "Another", agents: ["main", "helper"], rounds: 1 });
    assert.is(busy.status, 429);
    assert.is(busy.body.error?.code, "RATE_LIMITED");
    assert.ok(Number(busy.headers.get("retry-after")) >= 1);
    held.open();
    await finished(rig, first.body.session.id);
    // A refused start (unknown agent) takes and frees the slot; it counts as a start.
    const unknown = await start(rig, { topic: "Who?", agents: ["main", "ghost"], rounds: 1 });
    assert.is(unknown.status, 404);
    assert.is(unknown.body.error?.code, "AGENT_NOT_FOUND");
    const third = await start(rig, { topic: "Third", agents: ["main", "helper"], rounds: 1 });
    assert.is(third.status, 202);
    await finished(rig, third.body.session.id);
    const fourth = await start(rig, { topic: "Fourth", agents: ["main", "helper"], rounds: 1 });
    assert.is(fourth.status, 429);
    assert.ok(Number(fourth.headers.get("retry-after")) > 1);
    assert.is((await rig.h.json<ApiBody<"getCouncilSession">>("/api/council/session")).body.sessions.length, 2);
  } finally {
    await rig.close();
  }
});

t("the gateway failing mid-way: status failed with the error; the slot is freed", async () => {
  const rig = await startRig({ host: { config: { pluginConfig: { council: { rateLimit: { perMinute: 100 } } } } } });
  try {
    const hook = councilHook({});
    rig.gw.onChat((agentId, message, key, ctx) => (message.includes(VOTE_ASK) ? { error: "LLM request failed: provider down" } : hook(agentId, message, key, ctx)));
    const res = await start(rig, { topic: "Fails at the vote", agents: ["main", "helper"], rounds: 1 });
    const done = await finished(rig, res.body.session.id);
    assert.is(done.status, "failed");
    assert.match(done.error ?? "", /^CHAT_RUN_FAILED: .*provider down/);
    assert.is(done.proposal, "PROPOSAL: ship the beta on Friday with a rollback plan");
    assert.is(done.votes.length, 0);
    assert.is(done.memoPath, null);

    // The connection dropping mid-deliberation.
    rig.gw.onChat((_a, _m, _k, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve("cut"))));
    const res2 = await start(rig, { topic: "Connection drops", agents: ["main", "helper"], rounds: 1 });
    await waitUntil(() => rig.gw.requests("chat.send").some((r) => r.params.sessionKey.endsWith(res2.body.session.id)), { label: "first turn" });
    rig.gw.closeAll(1012, "service restart");
    const done2 = await finished(rig, res2.body.session.id);
    assert.is(done2.status, "failed");
    assert.match(done2.error ?? "", /^GATEWAY_UNAVAILABLE/);
  } finally {
    await rig.close();
  }
});

t("bad inputs and the gateway down: refused with nothing stored", async () => {
  const rig = await startRig({ host: { config: { pluginConfig: { council: { rateLimit: { perMinute: 100 } } } } } });
  try {
    const cases = [
      {},
      { topic: "", agents: ["main", "helper"] },
      { topic: "  ", agents: ["main", "helper"] },
      { topic: "x".repeat(2_001), agents: ["main", "helper"] },
      { topic: "t", agents: ["main"] },
      { topic: "t", agents: ["main", "main"] },
      { topic: "t", agents: ["a", "b", "c", "d", "e", "f", "g", "h"] },
      { topic: "t", agents: ["main", "helper"], rounds: 0 },
      { topic: "t", agents: ["main", "helper"], rounds: 6 },
      { topic: "t", agents: ["main", "helper"], rounds: 1.5 },
      { topic: "t", agents: ["main", "helper"], extra: true },
    ];
    for (const body of cases) {
      const res = await start(rig, body);
      assert.is(res.status, 400, JSON.stringify(body).slice(0, 60));
      assert.is(res.body.error?.code, "VALIDATION_FAILED");
    }
    const unknown = await start(rig, { topic: "t", agents: ["main", "nobody"] });
    assert.is(unknown.status, 404);
    assert.is(unknown.body.error?.code, "AGENT_NOT_FOUND");
    const missing = await rig.h.json<ApiBody<"getCouncilSessionById">>("/api/council/session/0b1c9af8-4f37-40a2-822d-a526db4eb2cc");
    assert.is(missing.status, 404);
    assert.is(missing.body.error?.code, "COUNCIL_SESSION_NOT_FOUND");
    await rig.gw.stop();
    await untilEveryInstance(async () => (await rig.h.json<ApiBody<"getHealth">>("/api/health")).body.gateway.state !== "connected", { label: "gateway down" });
    const down = await start(rig, { topic: "t", agents: ["main", "helper"], rounds: 1 });
    assert.is(down.status, 503);
    assert.is(down.body.error?.code, "GATEWAY_UNAVAILABLE");
    // An unknown member is 404 whether or not the gateway is up: the crew is known locally (issue 23).
    const unknownWhileDown = await start(rig, { topic: "t", agents: ["main", "nobody"], rounds: 1 });
    assert.is(unknownWhileDown.status, 404, JSON.stringify(unknownWhileDown.body));
    assert.is(unknownWhileDown.body.error?.code, "AGENT_NOT_FOUND");
    assert.equal((await rig.h.json<ApiBody<"getCouncilSession">>("/api/council/session")).body.sessions, []);
    assert.is(rig.gw.requests("chat.send").length, 0);
  } finally {
    await rig.close();
  }
});

t("a member in the organisation file that the gateway does not know: 409 AGENT_NOT_REGISTERED as chat answers, nothing stored, no turn sent", async () => {
  const rig = await startRig();
  try {
    mkdirSync(join(rig.h.workspace, "company"), { recursive: true });
    writeFileSync(join(rig.h.workspace, "company", "org_structure.yaml"), "org:\n  owner: daniel\n  agents:\n    ledger:\n      role: accountant\n");
    const chat = await rig.h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body: { message: "hi", agentId: "ledger" } });
    const res = await start(rig, { topic: "Close the books?", agents: ["main", "ledger"], rounds: 1 });
    assert.is(res.status, 409, JSON.stringify(res.body));
    assert.is(res.body.error?.code, "AGENT_NOT_REGISTERED");
    assert.equal([res.status, res.body.error], [chat.status, chat.body.error], "the same answer as chat's");
    assert.equal((await rig.h.json<ApiBody<"getCouncilSession">>("/api/council/session")).body.sessions, []);
    assert.is(rig.gw.requests("chat.send").length, 0);
  } finally {
    await rig.close();
  }
});

t("a memo directory linked out of the workspace: the session fails PATH_OUTSIDE_WORKSPACE and nothing is written outside", async () => {
  const rig = await startRig();
  const outside = mkdtempSync(join(tmpdir(), "council-outside-"));
  try {
    rig.gw.onChat(councilHook({ main: '{"vote":"support","confidence":1,"reason":"yes"}' }));
    const memoDir = join(rig.h.workspace, "company", "knowledge_base", "council");
    rmSync(memoDir, { recursive: true, force: true });
    mkdirSync(join(memoDir, ".."), { recursive: true });
    symlinkSync(outside, memoDir);
    const res = await start(rig, { topic: "Escape", agents: ["main", "helper"], rounds: 1 });
    const done = await finished(rig, res.body.session.id);
    assert.is(done.status, "failed");
    assert.match(done.error ?? "", /^PATH_OUTSIDE_WORKSPACE/);
    assert.is(done.memoPath, null);
    assert.is(done.approvalId, null);
    assert.equal(readdirSync(outside), []);
  } finally {
    await rig.close();
    rmSync(outside, { recursive: true, force: true });
  }
});

sqliteFileTest(t, "leaves a session running by writing muster.db (crash simulation)")("a stop cancels a running council; a session a crash left running is failed at the next start", async () => {
  const rig = await startRig();
  let h = rig.h;
  const at = { ...rig, get h() { return h; } } as Rig;
  try {
    rig.gw.onChat((_a, _m, _k, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve("cut"))));
    const res = await start(at, { topic: "Interrupted", agents: ["main", "helper"], rounds: 1 });
    await waitUntil(() => rig.gw.requests("chat.send").length === 1, { label: "first turn" });
    h = await h.restart();
    const cancelled = await session(at, res.body.session.id);
    assert.is(cancelled.status, "cancelled");
    assert.match(cancelled.error ?? "", /stopped/);
    // A crash leaves the row `running`: simulated by writing it so while the host is down.
    await h.stop();
    const db = new Database(join(h.home, "muster.db"));
    db.prepare("UPDATE council_sessions SET status = 'running', error = NULL, completedAt = NULL").run();
    db.close();
    h = await h.restart();
    const failed = await session(at, res.body.session.id);
    assert.is(failed.status, "failed");
    assert.match(failed.error ?? "", /stopped/);
  } finally {
    // close() stops the first host; the one running now is the last restart's.
    await h.stop();
    await rig.close();
  }
});

t.run();
