// Semantic search through HTTP with the `hash` provider: configuration, indexing jobs and
// their events, the answer shape, incremental re-indexing, the watcher, and the bad queries.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil, type EventRecorder } from "../../helpers/wait.ts";
import { openSse } from "../../helpers/sse-client.ts";
import { corpus, finished, startRagHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ h: TestHost; rec: EventRecorder }>("rag http");

t.before(async (ctx) => {
  Object.assign(ctx, await startRagHost());
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const search = (h: TestHost, q: string, extra = "") => h.json<ApiBody<"getMemoryRag">>(`/api/memory/rag?q=${encodeURIComponent(q)}${extra}`);

t("disabled by default: search answers 409 RAG_DISABLED; config lists the four providers", async ({ h }) => {
  const res = await search(h, "invoice timeout");
  assert.is(res.status, 409);
  assert.is(res.body.error?.code, "RAG_DISABLED");
  const cfg = await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config");
  assert.is(cfg.status, 200);
  assert.equal(cfg.body.config, { provider: "hash", enabled: false, agentModes: {} });
  assert.equal(cfg.body.providers.map((p: { id: string }) => p.id), ["local", "hash", "ollama", "openai"]);
  const hash = cfg.body.providers.find((p: { id: string }) => p.id === "hash");
  assert.ok(hash);
  assert.equal({ available: hash.available, dimensions: hash.dimensions }, { available: true, dimensions: 512 });
  // The word-vector package is installed (optional dependency): `local` is listed as usable (local.test.ts uses it).
  const local = cfg.body.providers.find((p: { id: string }) => p.id === "local");
  assert.ok(local);
  assert.equal({ available: local.available, model: local.model, dimensions: local.dimensions }, { available: true, model: "glove-6b-100d-sif", dimensions: 100 });
  assert.equal(Object.keys(cfg.body.agents[0] ?? {}).sort(), ["agentId", "chunks", "dirty", "indexed", "mode", "provider", "total", "vectorReady"]);
});

t("enabling indexes every markdown file off the request path, reporting progress events", async ({ h, rec }) => {
  const res = await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "hash", enabled: true } });
  assert.is(res.status, 200);
  assert.equal(res.body, { ok: true, config: { provider: "hash", enabled: true, agentModes: {} } });
  const first = await rec.waitFor("rag.index.progress");
  const job = await finished(rec, (first.payload as { job: { id: string } }).job.id);
  assert.is(job.status, "done");
  // The corpus plus the markdown of the scaffolded workspace.
  assert.ok(job.total >= Object.keys(corpus).length);
  assert.is(job.done, job.total);
  // The watcher may queue one more (empty) job for the files written at start; wait it out.
  const main = await waitUntil(async () => {
    const a = (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.agents[0];
    assert.ok(a);
    return a.dirty ? null : a;
  }, { timeoutMs: 10_000 });
  assert.equal({ agentId: main.agentId, indexed: main.indexed, total: main.total, dirty: main.dirty, vectorReady: main.vectorReady, mode: main.mode }, { agentId: "main", indexed: job.total, total: job.total, dirty: false, vectorReady: true, mode: "default" });
  assert.ok(main.chunks >= job.total);
});

t("GET /api/memory/rag answers {ok, query, agent, provider, results[path,startLine,endLine,score,excerpt]} best first", async ({ h }) => {
  const res = await search(h, "invoice worker timeout", "&limit=3");
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal({ ok: res.body.ok, query: res.body.query, agent: res.body.agent, provider: res.body.provider }, { ok: true, query: "invoice worker timeout", agent: "main", provider: "hash" });
  assert.ok(res.body.results.length >= 1 && res.body.results.length <= 3);
  const top = res.body.results[0];
  assert.ok(top);
  assert.is(top.path, "memory/2026-11-20.md");
  assert.is(top.startLine, 1);
  assert.ok(top.endLine >= 8);
  assert.match(top.excerpt, /invoice/);
  const scores = res.body.results.map((r: { score: number }) => r.score);
  assert.equal(scores, [...scores].sort((a: number, b: number) => b - a));
  for (const [q, path] of [["soil moisture greenhouse", "projects/garden.md"], ["interview backend engineers", "company/hiring.md"], ["roast chocolate beans", "insights/coffee.md"]]) {
    assert.is((await search(h, q!)).body.results[0]?.path, path, q);
  }
});

t("POST /api/memory/rag answers 202 with the job at once; unchanged files are not embedded again; force redoes all", async ({ h, rec }) => {
  const res = await h.json<ApiBody<"postMemoryRag">>("/api/memory/rag", { method: "POST", body: {} });
  assert.is(res.status, 202);
  assert.equal(Object.keys(res.body.job).sort(), ["done", "id", "provider", "status", "total"]);
  const job = await finished(rec, res.body.job.id);
  assert.equal({ status: job.status, total: job.total }, { status: "done", total: 0 });
  const sse = await openSse(h.url);
  const forced = await h.json<ApiBody<"postMemoryRag">>("/api/memory/rag", { method: "POST", body: { agent: "main", force: true } });
  assert.is(forced.status, 202);
  try {
    // Progress reaches SSE clients as public events.
    const frame = await sse.next((f) => f.data?.type === "event" && f.data.name === "rag.index.finished" && f.data.payload.job.id === forced.body.job.id, 10_000);
    assert.is(frame.data.payload.job.status, "done");
    assert.ok(sse.frames.some((f) => f.data?.name === "rag.index.progress"));
  } finally {
    sse.close();
  }
  const all = (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.agents[0]!.total;
  assert.is((await finished(rec, forced.body.job.id)).total, all);
});

t("the watcher re-indexes a new file and forgets a deleted one", async ({ h }) => {
  writeFileSync(join(h.workspace, "memory/kites.md"), "# Kite festival\n\nThe kite festival is on the northern beach; bring spools of dyneema line.\n");
  await waitUntil(async () => (await search(h, "kite festival dyneema")).body.results[0]?.path === "memory/kites.md", { timeoutMs: 10_000 });
  rmSync(join(h.workspace, "memory/kites.md"));
  await waitUntil(async () => !(await search(h, "kite festival dyneema")).body.results.some((r: { path: string }) => r.path === "memory/kites.md"), { timeoutMs: 10_000 });
});

t("an edited file answers from its new text only, and every other file still answers", async ({ h }) => {
  const vector = (q: string) => search(h, q, "&mode=vector&limit=5");
  assert.is((await vector("soil moisture greenhouse")).body.results[0]?.path, "projects/garden.md", "the vectors are held (read once)");
  writeFileSync(join(h.workspace, "projects/garden.md"), "# Volcano trip\n\nBasalt columns formed where the lava cooled; the crater eruption was in 1783.\n");
  await waitUntil(async () => (await vector("volcano basalt lava crater")).body.results[0]?.path === "projects/garden.md", { timeoutMs: 10_000, label: "the edit answered" });
  const old = await vector("soil moisture greenhouse valve sensors");
  assert.not.ok(old.body.results.some((r: { excerpt: string }) => /moisture/i.test(r.excerpt)), "no chunk of the old text is left");
  for (const [q, path] of [["invoice worker timeout", "memory/2026-11-20.md"], ["interview backend engineers", "company/hiring.md"], ["roast chocolate beans", "insights/coffee.md"]] as const) {
    assert.is((await vector(q)).body.results[0]?.path, path, q);
  }
  writeFileSync(join(h.workspace, "projects/garden.md"), corpus["projects/garden.md"]!);
  await waitUntil(async () => (await vector("soil moisture greenhouse")).body.results[0]?.path === "projects/garden.md", { timeoutMs: 10_000, label: "the text restored" });
});

t("bad queries: 1 character and 10,000 characters are refused 400; punctuation only answers no results", async ({ h }) => {
  for (const q of ["a", " b ", "x".repeat(10_000)]) {
    const res = await search(h, q);
    assert.is(res.status, 400, `${q.length} chars`);
    assert.is(res.body.error?.code, "VALIDATION_FAILED");
  }
  const punct = await search(h, "?!.,;:--");
  assert.is(punct.status, 200);
  assert.equal(punct.body.results, []);
  for (const extra of ["&limit=0", "&limit=101", "&limit=abc", "&agent=..%2Fetc", "&mode=magic", "&extra=1"]) {
    const res = await search(h, "invoice", extra);
    assert.is(res.status, 400, extra);
  }
});

t("config: unknown provider 400 RAG_PROVIDER_UNKNOWN, bad bodies 400, nothing changed; per-agent md mode refuses search", async ({ h }) => {
  const before = (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.config;
  const unknown = await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "gemini" } });
  assert.is(unknown.status, 400);
  assert.is(unknown.body.error?.code, "RAG_PROVIDER_UNKNOWN");
  for (const body of [{ enabled: "yes" }, { agentModes: { odin: "vector" } }, { agentModes: { "../x": "md" } }, { provider: "hash", apiKey: "sk" }, []]) {
    const res = await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body });
    assert.is(res.status, 400, JSON.stringify(body));
  }
  assert.equal((await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.config, before);
  const md = await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { agentModes: { odin: "md", frigg: "rag" } } });
  assert.equal(md.body.config.agentModes, { odin: "md", frigg: "rag" });
  const refused = await search(h, "invoice", "&agent=odin");
  assert.is(refused.status, 409);
  assert.is(refused.body.error?.code, "RAG_AGENT_MD_ONLY");
  assert.is((await search(h, "invoice", "&agent=frigg")).status, 200);
  const agents = (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.agents.map((a: { agentId: string; mode: string }) => [a.agentId, a.mode]);
  assert.equal(agents, [["main", "default"], ["frigg", "rag"], ["odin", "md"]]);
  // `default` removes the override.
  const reset = await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { agentModes: { odin: "default" } } });
  assert.equal(reset.body.config.agentModes, { frigg: "rag" });
  assert.is((await search(h, "invoice", "&agent=odin")).status, 200);
});

t("a locked vault (no VAULT_KEY) makes openai unavailable; configuration and hash search still work", async () => {
  const { h, rec } = await startRagHost({ vaultKey: null });
  try {
    const cfg = await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config");
    assert.is(cfg.status, 200, JSON.stringify(cfg.body));
    assert.is(cfg.body.providers.find((p: { id: string }) => p.id === "openai")?.available, false);
    const refused = await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "openai", enabled: true } });
    assert.is(refused.status, 503);
    assert.is(refused.body.error?.code, "RAG_PROVIDER_UNAVAILABLE");
    await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "hash", enabled: true } });
    await rec.waitFor("rag.index.finished", () => true, 10_000);
    assert.is((await search(h, "soil moisture greenhouse")).body.results[0]?.path, "projects/garden.md");
  } finally {
    await h.stop();
    removeHome(h.home);
  }
});

t.run();
