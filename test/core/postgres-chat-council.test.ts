// Chat and council on a real, throwaway PostgreSQL (issue 25): their stores left `db.sql` for
// driver-neutral atomic steps. Chat: a message stored with its new session, the reply, a
// follow-up adding an agent, a delete with its messages; and 20 follow-ups naming new agents
// at once, each landing (the session's row locked from the read of its agents to the commit).
// Council: a session run to its end (positions, proposal, votes, the adopted decision's
// approval, its ratification) and 20 concurrent appends to one session's positions, none lost. Their SQLite
// suites stay under test/plugins/chat and test/plugins/council. One cluster for the file,
// always stopped; skipped, with the reason printed, where PostgreSQL's server binaries are
// missing.
//
// The concurrent steps are raced through a probe plugin that builds the plugin's own store on
// the host's database: the services run one turn at a time per session, so HTTP alone never
// appends to one session concurrently.
import * as assert from "uvu/assert";
import { definePlugin, defineRoutes, defineService, hostTokens, token, z, type Database } from "@muster/plugin";
import { decideApproval, type ApiBody } from "@muster/plugin/testing";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { approvalsPlugin } from "../../plugins/approvals/index.ts";
import { chatPlugin } from "../../plugins/chat/index.ts";
import { ChatStore } from "../../plugins/chat/services/chat-store.ts";
import { councilPlugin } from "../../plugins/council/index.ts";
import { CouncilStore } from "../../plugins/council/services/council-store.ts";
import { notificationsPlugin } from "../../plugins/notifications/index.ts";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";
import { AGENTS, FAST, TOKEN, waitForGateway } from "../plugins/chat/chat-helpers.ts";

const { t, test, database } = postgresSuite("chat and council on PostgreSQL");

/** How many racers a concurrency test starts at once. */
const RACERS = 20;
const DB = token<() => Database>("pg-chat-probe.db");

/** Races `RACERS` calls of a store's step through a route. */
const probePlugin = definePlugin({
  id: "pg-chat-probe",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/pg-chat-probe"],
  optionalDependsOn: ["chat", "council"],
  register(ctx) {
    ctx.provide(defineService({ token: DB, deps: { db: hostTokens.db }, create: ({ db }) => () => db as Database }));
  },
  routes: defineRoutes({
    deps: { db: DB },
    mount(router, { db }) {
      const race = async (step: (i: number) => Promise<boolean>) => ({ ok: true, won: (await Promise.all(Array.from({ length: RACERS }, (_, i) => step(i)))).filter(Boolean).length });
      router.post("/api/pg-chat-probe/follow-ups", { summary: "Race follow-ups each naming a new agent", body: z.object({ sessionId: z.string() }) }, async ({ body }) => {
        const store = new ChatStore(db);
        const session = (await store.getSession(body.sessionId))!;
        return race(async (i) => {
          const now = new Date().toISOString();
          const message = { id: crypto.randomUUID(), sessionId: session.id, role: "user" as const, agentId: null, round: null, text: `to a${i}`, thinking: null, toolCalls: [], artifacts: [], runId: null, inputTokens: 0, outputTokens: 0, createdAt: now };
          await store.addUserMessage({ ...session, agentIds: [`a${i}`], updatedAt: now }, message, false);
          return true;
        });
      });
      router.post("/api/pg-chat-probe/council-appends", { summary: "Race position appends to one session", body: z.object({ topic: z.string() }) }, async ({ body }) => {
        const store = new CouncilStore(db);
        const id = crypto.randomUUID();
        const createdAt = new Date().toISOString();
        await store.insert({ id, topic: body.topic, agents: ["main"], rounds: 1, status: "running", positions: [], proposal: null, votes: [], outcome: null, approvalId: null, memoPath: null, error: null, createdAt, completedAt: null, ratifiedAt: null, ratifiedBy: null });
        const raced = await race((i) => store.appendPosition(id, { round: 1, agentId: `a${i}`, text: `position ${i}` }));
        // An ended session takes no more appends.
        await store.end(id, "cancelled", "enough", new Date().toISOString());
        return { ...raced, id, afterEnd: await store.appendVote(id, { agentId: "main", vote: "support", confidence: 1, reason: "late" }) };
      });
    },
  }),
});

/** A fake gateway with the chat suites' three agents, and a host on PostgreSQL connected to it. */
async function withGatewayHost(plugins: unknown[], body: (h: TestHost, gw: FakeGateway) => Promise<void>): Promise<void> {
  const url = await database();
  const gw = await FakeGateway.start({ token: TOKEN, agents: AGENTS, tickIntervalMs: 5_000 });
  try {
    await withTestHost(
      { plugins: plugins as never, env: { DATABASE_URL: url }, config: { gatewayUrl: gw.url, gatewayToken: TOKEN, gatewayTimings: FAST } },
      async (h) => {
        await waitForGateway(h, "connected");
        await body(h, gw);
      },
    );
  } finally {
    await gw.stop();
  }
}

test("chat: a message with its new session, the reply, a follow-up adding an agent, concurrent follow-ups naming new agents, a delete with its messages", async () => {
  await withGatewayHost([chatPlugin, probePlugin], async (h, gw) => {
    gw.onChat((agentId, message) => `Reply from ${agentId}: ${message}`);
    const post = (body: unknown) => h.json<ApiBody<"postChat">>("/api/chat", { method: "POST", body });
    const detail = (id: string) => h.json<ApiBody<"getChatSessionsById">>(`/api/chat/sessions/${id}`);

    const first = await post({ message: "Hi main", agentId: "main" });
    assert.is(first.status, 200, JSON.stringify(first.body));
    const id = first.body.sessionId;
    const read = await detail(id);
    assert.is(read.status, 200, JSON.stringify(read.body));
    assert.equal([read.body.session.mode, read.body.session.agentIds, read.body.session.title], ["single", ["main"], "Hi main"]);
    assert.equal(read.body.messages.map((m) => [m.role, m.agentId, m.text, m.toolCalls]), [
      ["user", null, "Hi main", []],
      ["agent", "main", "Reply from main: Hi main", []],
    ]);
    const listed = await h.json<ApiBody<"getChatSessions">>("/api/chat/sessions");
    assert.equal(listed.body.sessions.map((s) => s.id), [id]);

    const followUp = await post({ message: "And you?", agentId: "helper", sessionId: id });
    assert.is(followUp.status, 200, JSON.stringify(followUp.body));
    const after = await detail(id);
    assert.equal(after.body.session.agentIds, ["main", "helper"]);
    assert.is(after.body.messages.length, 4);
    assert.ok(after.body.session.updatedAt > read.body.session.updatedAt);

    // Each follow-up reads the session's agents and writes them back with its own: without the
    // row lock, concurrent ones would overwrite each other's.
    const raced = await h.json<{ won: number }>("/api/pg-chat-probe/follow-ups", { method: "POST", body: { sessionId: id } });
    assert.is(raced.status, 200, JSON.stringify(raced.body));
    const agents = (await detail(id)).body.session.agentIds;
    assert.equal(agents.slice(0, 2), ["main", "helper"]);
    assert.equal([...agents.slice(2)].sort(), Array.from({ length: RACERS }, (_, i) => `a${i}`).sort());
    assert.is((await detail(id)).body.messages.length, 4 + RACERS);

    const unknown = await post({ message: "Hello?", agentId: "main", sessionId: "no-such-session" });
    assert.is(unknown.status, 404);
    assert.is(unknown.body.error?.code, "CHAT_SESSION_NOT_FOUND");

    assert.is((await h.json(`/api/chat/sessions/${id}`, { method: "DELETE", session: true })).status, 200);
    const gone = await detail(id);
    assert.is(gone.status, 404);
    assert.is(gone.body.error?.code, "CHAT_SESSION_NOT_FOUND");
    const again = await h.json<ApiBody<"deleteChatSessionsById">>(`/api/chat/sessions/${id}`, { method: "DELETE", session: true });
    assert.is(again.status, 404);
    assert.is(again.body.error?.code, "CHAT_SESSION_NOT_FOUND");
  });
});

const VOTE_ASK = "Vote on the proposal";
const MODERATOR_ASK = "the moderator of a council";

test("council: a session runs to its adopted end and reads back; 20 concurrent appends to one session all land; an ended session takes none", async () => {
  await withGatewayHost([activitiesPlugin, notificationsPlugin, approvalsPlugin, chatPlugin, councilPlugin, probePlugin], async (h, gw) => {
    gw.onChat((agentId, message) => {
      if (message.includes(VOTE_ASK)) return agentId === "scout" ? '{"vote":"oppose","confidence":0.4,"reason":"docs missing"}' : '{"vote":"support","confidence":0.9,"reason":"ready"}';
      if (message.includes(MODERATOR_ASK)) return "PROPOSAL: ship on Friday";
      return `${agentId} position in round ${/round (\d) of/.exec(message)?.[1]}`;
    });
    const session = async (id: string) => (await h.json<ApiBody<"getCouncilSessionById">>(`/api/council/session/${id}`)).body.session;

    const members = ["main", "helper", "scout"];
    const started = await h.json<ApiBody<"postCouncilSession">>("/api/council/session", { method: "POST", body: { topic: "Ship on Friday?", agents: members, rounds: 2 } });
    assert.is(started.status, 202, JSON.stringify(started.body));
    const id = started.body.session.id;
    const done = await waitUntil(async () => {
      const s = await session(id);
      return s.status !== "running" ? s : null;
    }, { timeoutMs: 30_000, label: "the council session's end on PostgreSQL" });
    assert.is(done.status, "completed", done.error ?? undefined);
    assert.equal(
      done.positions.map((p) => [p.round, p.agentId, p.text]),
      [1, 2].flatMap((round) => members.map((agentId) => [round, agentId, `${agentId} position in round ${round}`])),
    );
    assert.is(done.proposal, "PROPOSAL: ship on Friday");
    assert.equal(done.votes.map((v) => [v.agentId, v.vote]), [["main", "support"], ["helper", "support"], ["scout", "oppose"]]);
    assert.is(done.outcome, "adopted");
    assert.ok(done.approvalId);
    const approval = await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${done.approvalId}`);
    assert.equal([approval.body.approval.status, approval.body.approval.command], ["pending", "council.decision"]);
    // Ratified by approving it: recorded on the session (test/core/postgres-activities.test.ts
    // checks the approval's execution and its activity).
    assert.is((await decideApproval(h, done.approvalId, "approved")).status, 200);
    const ratified = await waitUntil(async () => ((await session(id)).ratifiedAt ? session(id) : null), { label: "ratified" });
    assert.is(ratified.ratifiedBy, "owner");
    const list = await h.json<ApiBody<"getCouncilSession">>("/api/council/session");
    assert.is(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.sessions.map((s) => s.id), [id]);

    const raced = await h.json<{ won: number; id: string; afterEnd: boolean }>("/api/pg-chat-probe/council-appends", { method: "POST", body: { topic: "Race" } });
    assert.is(raced.status, 200, JSON.stringify(raced.body));
    assert.is(raced.body.won, RACERS);
    const appended = await session(raced.body.id);
    assert.equal(appended.positions.map((p) => p.agentId).sort(), Array.from({ length: RACERS }, (_, i) => `a${i}`).sort());
    assert.is(raced.body.afterEnd, false);
    assert.equal([appended.status, appended.votes], ["cancelled", []]);
  });
});

t.run();
