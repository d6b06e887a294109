// The usage and rag plugins on a real, throwaway PostgreSQL (issue 25): their stores left
// `db.sql` for driver-neutral atomic steps. Usage: the same cost events recorded on SQLite and
// on PostgreSQL give the same summary, series and budgets (an event with its rollup and totals
// upserts in one step, budget upserts, alert claims, per-engine quarter-hour buckets). rag: a
// workspace indexed with the in-process `hash` provider (as test/plugins/rag does) answers a
// semantic search (its routes are the memory plugin's, which it therefore brings); a forced re-index replaces each file's chunks whole, a deleted file's go.
// Their SQLite suites stay under test/plugins/usage and test/plugins/rag. One cluster for the
// file, always stopped; skipped, with the reason printed, where PostgreSQL's binaries are missing.
import * as assert from "uvu/assert";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiBody } from "@muster/plugin/testing";
import { memoryPlugin } from "../../plugins/memory/index.ts";
import { ragPlugin } from "../../plugins/rag/index.ts";
import { usagePlugin } from "../../plugins/usage/index.ts";
import { removeHome, startTestHost, withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { sleep, waitUntil } from "../helpers/wait.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";
import { corpus, writeCorpus } from "../plugins/rag/helpers.ts";

const { t, test, database } = postgresSuite("usage and rag on PostgreSQL");

const DAY_MS = 86_400_000;
const usageConfig = { pluginConfig: { usage: { budgets: { capped: 100 } } } };

/** The same cost events on a host (claude-haiku-4: $1/M input; claude-sonnet-4: $3/M input, $15/M output): today, yesterday, 20 days ago. */
async function recordUsage(h: TestHost): Promise<void> {
  const now = Date.now();
  for (const body of [
    { agentId: "writer", model: "claude-sonnet-4-6", inputTokens: 1_000_000 },
    { agentId: "writer", model: "claude-sonnet-4-6", inputTokens: 1_000_000, outputTokens: 10_000 },
    { agentId: "writer", model: "claude-haiku-4-5", inputTokens: 100_000 },
    { agentId: "scout", model: "claude-sonnet-4-6", outputTokens: 100_000 },
    { agentId: "scout", model: "mystery-model", inputTokens: 500 },
    { agentId: "writer", model: "claude-sonnet-4-6", inputTokens: 2_000_000, timestamp: new Date(now - 2 * DAY_MS).toISOString() },
    { agentId: "writer", model: "claude-sonnet-4-6", inputTokens: 5_000_000, timestamp: new Date(now - 20 * DAY_MS).toISOString() },
    // 80 then 100 cents of a 100-cent budget: the warning and the refusal (alert claims on each engine).
    { agentId: "capped", model: "claude-haiku-4-5", inputTokens: 800_000 },
    { agentId: "capped", model: "claude-haiku-4-5", inputTokens: 200_000 },
  ]) {
    const res = await h.json<ApiBody<"postUsage">>("/api/usage", { method: "POST", body: { action: "task", ...body } });
    assert.is(res.status, 201, JSON.stringify(res.body));
  }
  const set = await h.json<ApiBody<"putUsageBudgetsByAgentId">>("/api/usage/budgets/writer", { method: "PUT", session: true, body: { dailyCents: 5_000 } });
  assert.is(set.status, 200, JSON.stringify(set.body));
  const raised = await h.json<ApiBody<"putUsageBudgetsByAgentId">>("/api/usage/budgets/writer", { method: "PUT", session: true, body: { dailyCents: 6_000 } });
  assert.is(raised.body.budget.budgetCents, 6_000, "a second setting of one budget updates it");
}

/** What the usage routes answer, as figures: the summary (UTC and a far time zone), series over 7 and 30 days, budgets, a refusal. */
async function readUsage(h: TestHost) {
  const points = async (days: number) => {
    const res = await h.json<ApiBody<"getUsageSeries">>(`/api/usage/series?days=${days}`);
    assert.is(res.status, 200, JSON.stringify(res.body));
    const key = (p: { date: string; agentId: string; model: string }) => `${p.date} ${p.agentId} ${p.model}`;
    return { dates: res.body.dates, points: [...res.body.points].sort((a, b) => key(a).localeCompare(key(b))) };
  };
  const summary = await h.json<ApiBody<"getUsage">>("/api/usage");
  assert.is(summary.status, 200, JSON.stringify(summary.body));
  const far = await h.json<ApiBody<"getUsage">>("/api/usage?tz=Pacific/Kiritimati");
  const capped = await h.json<ApiBody<"getUsageBudgetsByAgentId">>("/api/usage/budgets/capped");
  return {
    summary: summary.body,
    far: far.body,
    week: await points(7),
    month: await points(30),
    budgets: (await h.json<ApiBody<"getUsageBudgets">>("/api/usage/budgets")).body.budgets,
    capped: capped.body.budget,
  };
}

test("usage: the same events give the same summary, series and budgets as on SQLite", async () => {
  const onSqlite = await withTestHost({ plugins: [usagePlugin], config: usageConfig }, async (h) => {
    await recordUsage(h);
    return readUsage(h);
  });
  const url = await database();
  const onPostgres = await withTestHost({ plugins: [usagePlugin], env: { DATABASE_URL: url }, config: usageConfig }, async (h) => {
    await recordUsage(h);
    const refused = await h.json<ApiBody<"postUsage">>("/api/usage", { method: "POST", body: { agentId: "x", model: "m", action: "task", inputTokens: -1 } });
    assert.is(refused.status, 400);
    assert.is(refused.body.error?.code, "USAGE_TOKENS_OUT_OF_RANGE");
    return readUsage(h);
  });
  // The figures themselves, so that two equally wrong engines cannot pass.
  assert.equal(onPostgres.summary.today.byAgent.writer, { input: 2_100_000, output: 10_000, cost: 625 });
  assert.equal(onPostgres.summary.allTime, { totalEvents: 9, estimatedCostCents: 625 + 150 + 600 + 1500 + 100 });
  assert.equal(onPostgres.capped, { agentId: "capped", spentCents: 100, budgetCents: 100, exceeded: true });
  assert.is(onPostgres.week.points.length, 6);
  assert.is(onPostgres.month.points.length, 7);
  assert.equal(onPostgres, onSqlite);
});

test("usage: 20 concurrent events of one agent and quarter hour all reach the rollup and totals (the upserts add on PostgreSQL's row lock)", async () => {
  const url = await database();
  await withTestHost({ plugins: [usagePlugin], env: { DATABASE_URL: url } }, async (h) => {
    const posted = await Promise.all(Array.from({ length: 20 }, () => h.json<ApiBody<"postUsage">>("/api/usage", { method: "POST", body: { agentId: "racer", model: "claude-haiku-4-5", action: "task", inputTokens: 10_000, outputTokens: 1 } })));
    assert.equal(posted.map((r) => r.status), Array(20).fill(201));
    const summary = (await h.json<ApiBody<"getUsage">>("/api/usage")).body;
    assert.equal(summary.today.byAgent.racer, { input: 200_000, output: 20, cost: 20 });
    assert.equal(summary.allTime, { totalEvents: 20, estimatedCostCents: 20 });
  });
});

test("rag: a workspace indexed on PostgreSQL answers a semantic search; a forced re-index replaces chunks whole; a deleted file's chunks go", async () => {
  const url = await database();
  await withTestHost({ plugins: [memoryPlugin, ragPlugin], env: { DATABASE_URL: url }, config: { gatewayToken: null, pluginConfig: { rag: { watchDebounceMs: 50 } } } }, async (h) => {
    writeCorpus(h.workspace);
    const search = (q: string) => h.json<ApiBody<"getMemoryRag">>(`/api/memory/rag?q=${encodeURIComponent(q)}&mode=vector&limit=3`);
    const agent = async () => (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.agents[0]!;
    // Every markdown file on disk (the template's and the corpus), so a status between two jobs cannot pass for the end.
    const onDisk = () => readdirSync(h.workspace, { recursive: true, encoding: "utf8" }).filter((p) => p.endsWith(".md") && !p.split("/").some((s) => s.startsWith("."))).length;
    const settled = () => waitUntil(async () => { const a = await agent(); return !a.dirty && a.total === onDisk() && a.indexed === a.total ? a : null; }, { timeoutMs: 30_000, label: "every file indexed on PostgreSQL" });
    const enabled = await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "hash", enabled: true } });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    assert.equal(enabled.body.config, { provider: "hash", enabled: true, agentModes: {} }, "the settings upsert");
    const indexed = await settled();
    assert.ok(indexed.total >= Object.keys(corpus).length);
    assert.ok(indexed.vectorReady);

    const res = await search("invoice worker timeout");
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.provider, "hash");
    const top = res.body.results[0];
    assert.ok(top, "an answer");
    assert.is(top.path, "memory/2026-11-20.md");
    assert.match(top.excerpt, /invoice/);
    for (const [q, path] of [["soil moisture greenhouse", "projects/garden.md"], ["interview backend engineers", "company/hiring.md"], ["roast chocolate beans", "insights/coffee.md"]] as const) {
      assert.is((await search(q)).body.results[0]?.path, path, q);
    }

    // A forced re-index deletes and re-inserts every file's chunks in one step each: the counts stay.
    const forced = await h.json<ApiBody<"postMemoryRag">>("/api/memory/rag", { method: "POST", body: { force: true } });
    assert.is(forced.status, 202);
    await waitUntil(async () => ((await h.json<ApiBody<"postMemoryRag">>("/api/memory/rag", { method: "POST", body: {} })).body.job.total === 0 ? true : null), { timeoutMs: 30_000, label: "the forced job done" });
    const again = await settled();
    assert.equal({ indexed: again.indexed, chunks: again.chunks }, { indexed: indexed.indexed, chunks: indexed.chunks });
    assert.is((await search("invoice worker timeout")).body.results[0]?.path, "memory/2026-11-20.md");

    // The watcher indexes a new file and removes a deleted one (its chunks and file row in one step).
    writeFileSync(join(h.workspace, "memory/kites.md"), "# Kite festival\n\nThe kite festival is on the northern beach; bring spools of dyneema line.\n");
    await waitUntil(async () => ((await search("kite festival dyneema")).body.results[0]?.path === "memory/kites.md" ? true : null), { timeoutMs: 30_000, label: "the new file found" });
    rmSync(join(h.workspace, "memory/kites.md"));
    await waitUntil(async () => (!(await search("kite festival dyneema")).body.results.some((r: { path: string }) => r.path === "memory/kites.md") ? true : null), { timeoutMs: 30_000, label: "the deleted file forgotten" });
    assert.is((await agent()).chunks, indexed.chunks);
  });
});

test("rag in team mode: a configuration changed through one instance is what the other answers and builds on at once (it wrote its older copy back)", async () => {
  const url = await database();
  const workspaceDir = mkdtempSync(join(tmpdir(), "muster-team-rag-"));
  const options = { plugins: [memoryPlugin, ragPlugin], env: { DATABASE_URL: url }, config: { gatewayToken: null, workspaceDir, scaffoldWorkspace: false } };
  try {
    await withTestHost(options, (a) =>
      withTestHost(options, async (b) => {
        const configure = (h: TestHost, body: Record<string, unknown>) => h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body });
        assert.is((await b.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.config.enabled, false);
        assert.is((await configure(a, { provider: "hash", enabled: true })).status, 200);
        assert.is((await b.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.config.enabled, true, "the other instance answers the change");
        const moded = await configure(b, { agentModes: { scout: "md" } });
        assert.is(moded.status, 200, JSON.stringify(moded.body));
        assert.equal(moded.body.config, { provider: "hash", enabled: true, agentModes: { scout: "md" } }, "built on the stored configuration");
        assert.equal((await a.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.config, moded.body.config);
      }),
    );
  } finally {
    rmSync(workspaceDir, { recursive: true, force: true });
  }
});

/** The two-instance rag tests: a fresh database and a workspace holding the corpus, each instance's options over them, and a vector search's first path. */
async function teamRag(prefix: string) {
  const url = await database();
  const workspaceDir = mkdtempSync(join(tmpdir(), prefix));
  writeCorpus(workspaceDir);
  const config = { gatewayToken: null, workspaceDir, scaffoldWorkspace: false, pluginConfig: { rag: { watchDebounceMs: 50 } } };
  return { workspaceDir, options: { plugins: [memoryPlugin, ragPlugin], env: { DATABASE_URL: url }, config } };
}
const topPath = async (h: TestHost, q: string) => (await h.json<ApiBody<"getMemoryRag">>(`/api/memory/rag?q=${encodeURIComponent(q)}&mode=vector&limit=3`)).body.results[0]?.path;

test("rag in team mode: only the primary instance indexes and both answer; a job asked of the other is run by the primary; the next primary picks indexing up", async () => {
  const { workspaceDir, options } = await teamRag("muster-team-rag-");
  const hosts: TestHost[] = [];
  const stop = async (h: TestHost) => {
    hosts.splice(hosts.indexOf(h), 1);
    await h.stop();
    removeHome(h.home);
  };
  const search = topPath;
  const memory = async (h: TestHost) => (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body;
  const finds = (h: TestHost, q: string, path: string, label: string) => waitUntil(async () => ((await search(h, q)) === path ? true : null), { timeoutMs: 30_000, label });
  try {
    const a = await startTestHost(options);
    hosts.push(a);
    const enabled = await a.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "hash", enabled: true } });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    await waitUntil(async () => { const { agents, job } = await memory(a); return job?.status === "done" && !agents[0]!.dirty ? true : null; }, { timeoutMs: 30_000, label: "the corpus indexed by the first instance" });
    const chunks = (await memory(a)).agents[0]!.chunks;

    // The second instance (not the primary) runs no job of its own, at start or later, and
    // answers from the vectors the primary stored. Before, it indexed everything again.
    const b = await startTestHost(options);
    hosts.push(b);
    assert.is((await memory(b)).job, null, "the second instance ran an indexing job at start");
    for (const h of [a, b]) assert.is(await search(h, "invoice worker timeout"), "memory/2026-11-20.md");

    // A change in the shared workspace: both instances see it, the primary indexes it, both find it.
    writeFileSync(join(workspaceDir, "memory/kites.md"), "# Kite festival\n\nThe kite festival is on the northern beach; bring spools of dyneema line.\n");
    await finds(a, "kite festival dyneema", "memory/kites.md", "the new file found on the primary");
    await finds(b, "kite festival dyneema", "memory/kites.md", "the new file found on the other instance");
    await sleep(500);
    assert.is((await memory(b)).job, null, "the second instance indexed the change too");

    // A forced job asked of the second instance is run by the primary, under the id it answered with.
    const asked = await b.json<ApiBody<"postMemoryRag">>("/api/memory/rag", { method: "POST", body: { force: true } });
    assert.is(asked.status, 202, JSON.stringify(asked.body));
    await waitUntil(async () => { const { job } = await memory(a); return job?.id === asked.body.job.id && job.status === "done" ? true : null; }, { timeoutMs: 30_000, label: "the asked job run by the primary" });
    assert.is((await memory(b)).job, null);
    assert.is((await memory(b)).agents[0]!.chunks, chunks + 1, "the forced job replaced chunks whole");

    // The primary goes: the second becomes primary, runs one job, and indexes what changed meanwhile.
    await stop(a);
    writeFileSync(join(workspaceDir, "memory/tides.md"), "# Tide tables\n\nSpring tides flood the harbour slipway at dawn; moor the dinghy high.\n");
    await finds(b, "spring tides harbour slipway", "memory/tides.md", "a file written after the primary went found by the next one");
    assert.ok((await memory(b)).job, "the next primary ran a job");
  } finally {
    for (const h of [...hosts]) await stop(h);
    rmSync(workspaceDir, { recursive: true, force: true });
  }
});

test("rag in team mode: a search through the instance that is not the primary, right after the primary indexed a new file, finds it (it waited for its 2 s sweep)", async () => {
  const { workspaceDir, options } = await teamRag("muster-team-rag-notify-");
  const hosts: TestHost[] = [];
  const search = topPath;
  try {
    const a = await startTestHost(options);
    hosts.push(a);
    const enabled = await a.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "hash", enabled: true } });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    await waitUntil(async () => ((await a.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.job?.status === "done" ? true : null), { timeoutMs: 30_000, label: "the corpus indexed" });
    const b = await startTestHost(options);
    hosts.push(b);
    assert.is(await search(b, "invoice worker timeout"), "memory/2026-11-20.md");
    // Three new files, each searched through B as soon as the primary finds it: with the 2 s
    // sweep alone, B answered its older vectors nearly every time.
    for (const [name, text, query] of [
      ["kites", "The kite festival is on the northern beach; bring spools of dyneema line.", "kite festival dyneema"],
      ["tides", "Spring tides flood the harbour slipway at dawn; moor the dinghy high.", "spring tides harbour slipway"],
      ["bees", "The apiary's queen excluder sits between brood box and honey super.", "apiary queen excluder honey"],
    ] as const) {
      writeFileSync(join(workspaceDir, `memory/${name}.md`), `# ${name}\n\n${text}\n`);
      await waitUntil(async () => ((await search(a, query)) === `memory/${name}.md` ? true : null), { timeoutMs: 30_000, label: `${name} found on the primary` });
      assert.is(await search(b, query), `memory/${name}.md`, `${name} found through the other instance right away`);
    }
  } finally {
    for (const h of hosts.reverse()) {
      await h.stop();
      removeHome(h.home);
    }
    rmSync(workspaceDir, { recursive: true, force: true });
  }
});

test("rag in team mode: the status through the instance that is not the primary stays dirty until the primary's job has stored every file (it said settled between two of the primary's commits)", async () => {
  const { workspaceDir, options } = await teamRag("muster-team-rag-status-");
  const NOTES = 200;
  for (let i = 0; i < NOTES; i++) writeCorpus(workspaceDir, { [`notes/note-${i}.md`]: `# Note ${i}\n\nField note number ${i} about the ${i % 7 === 0 ? "orchard" : "meadow"} survey.\n` });
  const onDisk = Object.keys(corpus).length + NOTES;
  const hosts: TestHost[] = [];
  try {
    hosts.push(await startTestHost(options)); // A, started first: the primary
    hosts.push(await startTestHost(options));
    const [a, b] = hosts as [TestHost, TestHost];
    // Asked of B: the primary (A) takes the request within its 2 s sweep and runs the job.
    const enabled = await b.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "hash", enabled: true } });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    let midJob = 0;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await b.json<ApiBody<"getMemoryConfig">>("/api/memory/config");
      assert.is(status.status, 200, JSON.stringify(status.body));
      const agent = status.body.agents[0]!;
      if (!agent.dirty && agent.total > 0 && agent.indexed === agent.total) {
        assert.is(agent.indexed, onDisk, `B said settled with ${agent.indexed} of ${onDisk} files indexed`);
        break;
      }
      if (agent.indexed > 0) midJob++;
      assert.ok(Date.now() < deadline, `B never said settled: ${JSON.stringify(agent)}`);
      await sleep(10);
    }
    assert.ok(midJob > 0, "B's status was read while the primary's job ran");
    assert.is((await a.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.job?.status, "done", "the primary's job had ended");
  } finally {
    for (const h of hosts.reverse()) {
      await h.stop();
      removeHome(h.home);
    }
    rmSync(workspaceDir, { recursive: true, force: true });
  }
});

t.run();
