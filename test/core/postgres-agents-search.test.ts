// The agents and search plugins on a real, throwaway PostgreSQL (issue 25): their stores left
// `db.sql` for the store kit's atomic steps. Agents: the organisation file read into agent
// records at start (one `atomically` step), and a licence challenge's nonce spent once under
// concurrency (the kit's `transition`, `usedAt IS NULL` → now) over HTTP, and a stuck episode
// escalated once (epoch milliseconds in a BIGINT, raced through the agents' store). Search: a workspace
// file indexed, found, saved (blob parts, index text and file rows as atomic steps), and found
// again after a restart that loads the saved index instead of re-reading the files. Their
// SQLite suites stay under test/plugins/agents and test/plugins/search. One cluster for the
// file, always stopped; skipped, with the reason printed, where PostgreSQL's binaries are missing.
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { definePlugin, defineRoutes, defineService, hostTokens, token, z, type Database } from "@muster/plugin";
import { decideApproval, type ApiBody } from "@muster/plugin/testing";
import { AgentStore } from "../../plugins/agents/services/agent-store.ts";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { agentsPlugin } from "../../plugins/agents/index.ts";
import { approvalsPlugin } from "../../plugins/approvals/index.ts";
import { memoryPlugin } from "../../plugins/memory/index.ts";
import { notificationsPlugin } from "../../plugins/notifications/index.ts";
import { searchPlugin } from "../../plugins/search/index.ts";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { FakeGateway } from "../helpers/fake-gateway.ts";
import { FAST, TOKEN, waitForGateway } from "../plugins/chat/chat-helpers.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";
import { waitUntil } from "../helpers/wait.ts";
import { makeWorkspace, ORG } from "../plugins/agents/agents-rig.ts";
import { search, startWithFiles, waitUntil as searchWaitUntil, whenIndexed, writeFiles } from "../plugins/search/helpers.ts";

const { t, test, database } = postgresSuite("agents and search on PostgreSQL");

/** How many installs race one nonce. */
const RACERS = 20;
const HOLDER = "0x00000000000000000000000000000000000000a1";
const ADDRESS = "0x00000000000000000000000000000000000000b2";
const DB = token<() => Database>("pg-agents-probe.db");

/** Races `RACERS` escalation claims of one stuck episode through the agents' own store: how many won. */
const escalationProbe = definePlugin({
  id: "pg-agents-probe",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/pg-agents-probe"],
  dependsOn: ["agents"],
  register(ctx) {
    ctx.provide(defineService({ token: DB, deps: { db: hostTokens.db }, create: ({ db }) => () => db as Database }));
  },
  routes: defineRoutes({
    deps: { db: DB },
    mount(router, { db }) {
      router.post("/api/pg-agents-probe/escalate", { summary: "Race claimEscalation", body: z.object({ agentId: z.string(), lastActivityMs: z.number().int() }) }, async ({ body }) => {
        const store = new AgentStore(db);
        const won = (await Promise.all(Array.from({ length: RACERS }, () => store.claimEscalation(body.agentId, body.lastActivityMs, new Date().toISOString())))).filter(Boolean).length;
        return { ok: true, won };
      });
    },
  }),
});

const PACK = JSON.stringify({ name: "licensed", version: "1.0.0", description: "licensed", templateId: 7, agents: [{ id: "licensed-a", name: "A", role: "operator", model: "m", tier: 3 }] });

test("agents: the organisation file becomes agent records; of 20 installs naming one licence nonce, one spends it; a stuck episode is escalated once", async () => {
  const url = await database();
  const { home, workspace } = makeWorkspace({ "company/org_structure.yaml": ORG, "packs/licensed.json": PACK });
  // No chain answers here: the proof's nonce is spent before the chain is asked, so the winner gets past the replay check.
  const marketplace = { rpcUrl: "http://127.0.0.1:9", addresses: { templateRegistry: ADDRESS, licenseToken: ADDRESS, marketplace: ADDRESS }, timeoutMs: 1_000 };
  const h = await startTestHost({
    home,
    workspace,
    plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin, memoryPlugin, agentsPlugin, escalationProbe],
    env: { DATABASE_URL: url },
    config: { owner: "Daniel", pluginConfig: { agents: { marketplace } } },
  });
  try {
    const agents = await h.json<ApiBody<"getAgents">>("/api/agents");
    assert.is(agents.status, 200, JSON.stringify(agents.body));
    const byId = new Map(agents.body.agents.map((a) => [a.id, a]));
    assert.equal([...byId.keys()].sort(), ["freya", "loki", "odin", "thor"]);
    assert.equal({ ...byId.get("thor"), createdAt: undefined, updatedAt: undefined }, { ...byId.get("thor"), role: "lead", tier: 2, squad: "dev", reportsTo: "odin", model: "m-mid", createdAt: undefined, updatedAt: undefined });
    assert.equal(byId.get("thor")!.skills, ["review", "typescript", "testing"]);

    const challenge = await h.json<{ challenge: { nonce: string; expiresAt: number; typedData: { domain: { salt: string } } } }>("/api/packs/licence-challenge", {
      method: "POST",
      body: { name: "licensed", holder: HOLDER },
    });
    assert.is(challenge.status, 201, JSON.stringify(challenge.body));
    const { nonce, expiresAt, typedData } = challenge.body.challenge;
    assert.match(typedData.domain.salt, /^0x[0-9a-f]{64}$/, "the instance salt the PostgreSQL migration made");
    const proof = { nonce, expiresAt, signature: `0x${"11".repeat(65)}` };
    const raced = await Promise.all(
      Array.from({ length: RACERS }, () => h.json<ApiBody<"postPacks">>("/api/packs", { method: "POST", body: { name: "licensed", buyer: HOLDER, proof } })),
    );
    const codes = raced.map((r) => r.body.error?.code);
    assert.is(codes.filter((c) => c === "LICENSE_PROOF_REPLAYED").length, RACERS - 1, JSON.stringify(codes));
    const winner = raced.find((r) => r.body.error?.code !== "LICENSE_PROOF_REPLAYED")!;
    assert.ok(["LICENSE_PROOF_INVALID", "LICENSE_CHECK_UNAVAILABLE"].includes(winner.body.error?.code ?? ""), JSON.stringify(winner.body));
    // A nonce this server never issued is not a replay.
    const unknown = await h.json<ApiBody<"postPacks">>("/api/packs", { method: "POST", body: { name: "licensed", buyer: HOLDER, proof: { ...proof, nonce: `0x${"22".repeat(32)}` } } });
    assert.is(unknown.status, 403);
    assert.is(unknown.body.error?.code, "LICENSE_PROOF_INVALID");

    // A stuck episode is escalated once; its last activity in epoch milliseconds passes 32 bits (BIGINT on PostgreSQL).
    const escalate = (lastActivityMs: number) => h.json<{ won: number }>("/api/pg-agents-probe/escalate", { method: "POST", body: { agentId: "thor", lastActivityMs } });
    const episode = Date.now();
    const first = await escalate(episode);
    assert.is(first.status, 200, JSON.stringify(first.body));
    assert.is(first.body.won, 1);
    assert.is((await escalate(episode)).body.won, 0, "the same episode again");
    assert.is((await escalate(episode + 1)).body.won, 1, "a new episode");
  } finally {
    await h.stop();
    removeHome(home);
  }
});

/**
 * Two instances of the crew's plugins on one database, sharing a workspace with the test
 * organisation (A on the workspace's home), linked to `gw`; `stop` stops both (B first) and
 * removes their homes.
 */
async function crewPair(url: string, gw: FakeGateway): Promise<{ a: TestHost; b: TestHost; stop: () => Promise<void> }> {
  const { home, workspace } = makeWorkspace({ "company/org_structure.yaml": ORG });
  const options = {
    plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin, memoryPlugin, agentsPlugin],
    workspace,
    env: { DATABASE_URL: url },
    config: { owner: "Daniel", gatewayUrl: gw.url, gatewayToken: TOKEN, gatewayTimings: FAST },
  };
  const a = await startTestHost({ ...options, home });
  const b = await startTestHost(options).catch(async (error) => {
    await a.stop();
    removeHome(home);
    throw error;
  });
  return {
    a,
    b,
    stop: async () => {
      for (const h of [b, a]) await h.stop();
      removeHome(home);
      removeHome(b.home);
    },
  };
}

test("team: an agent's configuration approved through one instance is what the other answers (it kept its cached agents table)", async () => {
  const url = await database();
  const gw = await FakeGateway.start({ token: TOKEN, agents: [{ id: "main" }] });
  gw.override("config.get", () => ({ hash: "base", config: {} }));
  gw.override("config.patch", () => ({ ok: true }));
  const { a, b, stop } = await crewPair(url, gw).catch(async (error) => {
    await gw.stop();
    throw error;
  });
  try {
    const sandboxOn = async (h: TestHost) => (await h.json<ApiBody<"getAgentsById">>("/api/agents/loki")).body.agent.sandbox;
    assert.equal([await sandboxOn(a), await sandboxOn(b)], ["off", "off"]);
    await waitForGateway(a, "connected", 20_000);
    const asked = await a.json<ApiBody<"patchAgentsById">>("/api/agents/loki", { method: "PATCH", body: { sandbox: "container" } });
    assert.is(asked.status, 202, JSON.stringify(asked.body));
    const decided = await decideApproval(a, String(asked.body.approval.id), "approved");
    assert.is(decided.body.approval.executionStatus, "succeeded", JSON.stringify(decided.body));
    assert.equal([await sandboxOn(a), await sandboxOn(b)], ["container", "container"]);
  } finally {
    await stop();
    await gw.stop();
  }
});

test("team: agents registered through one instance's approval are registered on the other's health and chat at once (it kept its cached agents.list for 60 s)", async () => {
  const url = await database();
  const gw = await FakeGateway.start({ token: TOKEN, agents: [{ id: "main" }] });
  const { a, b, stop } = await crewPair(url, gw).catch(async (error) => {
    await gw.stop();
    throw error;
  });
  const registered = async (h: TestHost) =>
    Object.fromEntries((await h.json<ApiBody<"getAgentsHealth">>("/api/agents/health")).body.agents.map((x) => [x.id, x.registered]));
  try {
    await waitForGateway(a, "connected", 20_000);
    await waitForGateway(b, "connected", 20_000);
    await waitUntil(async () => (await registered(b)).main === true, { timeoutMs: 20_000, label: "b read agents.list" });
    assert.is((await registered(b)).loki, false);
    const asked = await a.json<ApiBody<"postAgentsRegisterMissing">>("/api/agents/register-missing", { method: "POST" });
    assert.is(asked.status, 202, JSON.stringify(asked.body));
    const decided = await decideApproval(a, String(asked.body.approval.id), "approved");
    assert.is(decided.body.approval.executionStatus, "succeeded", JSON.stringify(decided.body));
    // The notification reaches b with the commit of a's decision; no 60 s refresh is waited for.
    const onB = await waitUntil(async () => {
      const flags = await registered(b);
      return flags.loki === true ? flags : null;
    }, { timeoutMs: 10_000, label: "b's health says loki is registered" });
    assert.equal(onB, { main: true, odin: true, thor: true, loki: true, freya: true });
  } finally {
    await stop();
    await gw.stop();
  }
});

test("team: ten concurrent factory creations of one id over two instances sharing the workspace: one 201, nine 409, one organisation entry", async () => {
  const url = await database();
  const { home, workspace } = makeWorkspace({ "company/org_structure.yaml": ORG, "personas/execution/developer.md": "# Developer persona" });
  const options = { plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin, memoryPlugin, agentsPlugin], workspace, env: { DATABASE_URL: url }, config: { owner: "Daniel" } };
  const a = await startTestHost({ ...options, home });
  const b = await startTestHost(options).catch(async (error) => {
    await a.stop();
    throw error;
  });
  try {
    const body = { templateId: "developer", name: "Vali", agentId: "vali", model: "m-small", squad: "dev", reportsTo: null };
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? b : a).json<ApiBody<"postAgentsFactory">>("/api/agents/factory", { method: "POST", body })));
    assert.equal(answers.map((r) => r.status).sort(), [201, ...Array<number>(9).fill(409)], JSON.stringify(answers.map((r) => r.body)));
    assert.ok(answers.filter((r) => r.status === 409).every((r) => r.body.error?.code === "AGENT_ALREADY_EXISTS"));
    assert.is(readFileSync(join(workspace, "company/org_structure.yaml"), "utf8").match(/^ {4}vali:/gm)?.length, 1);
  } finally {
    for (const h of [b, a]) await h.stop();
    removeHome(home);
    removeHome(b.home);
  }
});

test("search: a workspace file is indexed and found, and found again after a restart on the saved index", async () => {
  const url = await database();
  let h = await startWithFiles({ "company/knowledge_base/okapi.md": "# Okapi\n\nthe okapi lives in the forest\n", "docs/other.md": "# Other\n\nnothing here\n" }, { plugins: [searchPlugin], env: { DATABASE_URL: url } });
  try {
    const first = await search(h, { q: "okapi" });
    assert.is(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.results.map((r) => r.path), ["company/knowledge_base/okapi.md"]);
    assert.is(first.body.stats.lastRefresh?.kind, "build");

    h = await h.restart();
    await whenIndexed(h);
    const again = await search(h, { q: "okapi" });
    assert.equal(again.body.results.map((r) => r.path), ["company/knowledge_base/okapi.md"]);
    // Loaded from PostgreSQL: the saved index and its file rows vouch for both files, none is read again.
    assert.is(again.body.stats.lastRefresh?.kind, "load", JSON.stringify(again.body.stats));
    assert.is(again.body.stats.lastRefresh?.read, 0);
    assert.is(again.body.stats.lastRefresh?.unchanged, 2);
  } finally {
    await h.stop();
    removeHome(h.home);
  }
});

test("team: search: a re-index through either instance is the deployment's when the POST answers, stats are the primary's through both, and only the primary saves (another does once it is primary)", async () => {
  const url = await database();
  const files = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`docs/lemur-${i}.md`, `# Lemur ${i}\n\nthe lemur chapter ${i}\n`]));
  const options = { plugins: [searchPlugin], env: { DATABASE_URL: url } };
  const a = await startWithFiles(files, options);
  const b = await startTestHost({ ...options, workspace: a.workspace }).catch(async (error) => {
    await a.stop();
    removeHome(a.home);
    throw error;
  });
  const hosts = [b, a];
  const answer = async (h: TestHost) => (await search(h, { q: "lemur" })).body;
  try {
    await whenIndexed(b);
    // Through the non-primary: both instances re-index before the POST answers, and say so alike.
    const throughB = await b.json<ApiBody<"postSearch">>("/api/search", { method: "POST" });
    assert.is(throughB.status, 200, JSON.stringify(throughB.body));
    assert.is(throughB.body.filesIndexed, 6);
    const [onA, onB] = [await answer(a), await answer(b)];
    assert.is(onA.stats.lastRefresh?.kind, "reindex", "the primary re-indexed too");
    assert.equal(onB.stats.lastRefresh, onA.stats.lastRefresh, "one deployment's stats");
    assert.equal([onA.stats.indexing, onB.stats.indexing, onA.stats.totalFiles, onB.stats.totalFiles], [false, false, 6, 6]);
    assert.equal([onA.total, onB.total], [6, 6]);

    // Through the primary: the other's answer has the new re-index at once.
    const throughA = await a.json<ApiBody<"postSearch">>("/api/search", { method: "POST" });
    assert.is(throughA.status, 200);
    const after = await answer(b);
    assert.is(after.stats.lastRefresh?.kind, "reindex");
    assert.ok(after.stats.lastRefresh!.finishedAt > onB.stats.lastRefresh!.finishedAt, "b answers the new re-index");
    assert.equal(after.stats.lastRefresh, (await answer(a)).stats.lastRefresh);

    // The primary stops: b becomes the primary and saves its own index, then keeps it saved.
    await a.stop();
    hosts.pop();
    assert.ok(await searchWaitUntil(async () => (await answer(b)).stats.lastSave !== null, 15_000), "b saved once it was the primary");
    writeFiles(a.workspace, { "docs/late-lemur.md": "# Late\n\na late lemur\n" });
    assert.ok(await searchWaitUntil(async () => (await answer(b)).total === 7, 15_000), "b indexed a change");
    await b.stop();
    hosts.pop();
    // A new instance alone: the index b saved (with b's change) loads, and no file is read again.
    const c = await startTestHost({ ...options, home: a.home, workspace: a.workspace });
    hosts.push(c);
    await whenIndexed(c);
    const loaded = await answer(c);
    assert.is(loaded.total, 7);
    assert.equal([loaded.stats.lastRefresh?.kind, loaded.stats.lastRefresh?.read], ["load", 0], JSON.stringify(loaded.stats.lastRefresh));
  } finally {
    for (const h of hosts) await h.stop();
    removeHome(a.home);
    removeHome(b.home);
  }
});

t.run();
