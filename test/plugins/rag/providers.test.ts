// The HTTP embedding providers against local fakes of their APIs: good answers, and every
// fault of group J (down, slow, wrong dimensions, NaN, wrong count) failing the job with a
// coded error, storing nothing under the new provider and leaving search on full text.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import type { EventRecorder } from "../../helpers/wait.ts";
import { scaled } from "../../helpers/time-scale.ts";
import { startEmbeddingFake, type EmbeddingFake } from "../../helpers/embedding-fakes/server.ts";
import { type RagSearchBody, finished, startRagHost, storedKeys } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const DIMS = 64;
// The provider timeout stretches with the run's load (a loaded machine answered a fake's 500
// after 400 ms once, failing "down" with a timeout), and "slow" stays well beyond it.
const PROVIDER_TIMEOUT_MS = scaled(400);
const t = suite<{ h: TestHost; rec: EventRecorder; fake: EmbeddingFake }>("rag providers");

/** Every test here reads the stored vector keys in muster.db. */
const fileTest = sqliteFileTest(t, "reads the vector keys stored in muster.db");

t.before(async (ctx) => {
  ctx.fake = await startEmbeddingFake({ dimensions: DIMS });
  const rag = { timeoutMs: PROVIDER_TIMEOUT_MS, ollamaUrl: ctx.fake.url, ollamaModel: "fake-embed", ollamaDimensions: DIMS, openaiBaseUrl: ctx.fake.url, openaiModel: "fake-3", openaiDimensions: DIMS };
  Object.assign(ctx, await startRagHost({ rag }));
  // A first index under `hash`, which the failing providers must leave as it was.
  const on = await ctx.h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "hash", enabled: true } });
  assert.is(on.status, 200);
  await ctx.rec.waitFor("rag.index.finished", (e) => (e.payload as { job: { status: string } }).job.status === "done", 10_000);
});
t.after(async (ctx) => {
  await ctx.h.stop();
  await ctx.fake.close();
  removeHome(ctx.h.home);
});

const switchTo = (h: TestHost, provider: string) => h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider } });
const reindex = async (h: TestHost, rec: EventRecorder) => finished(rec, (await h.json<ApiBody<"postMemoryRag">>("/api/memory/rag", { method: "POST", body: { force: true } })).body.job.id);

for (const [name, behaviour, code] of [
  ["down (HTTP 500)", { kind: "down", status: 500 }, "RAG_PROVIDER_UNAVAILABLE"],
  ["slow (beyond the timeout)", { kind: "slow", delayMs: PROVIDER_TIMEOUT_MS * 8 }, "RAG_PROVIDER_TIMEOUT"],
  ["wrong dimensions", { kind: "wrong-dimensions", dimensions: DIMS + 1 }, "RAG_PROVIDER_BAD_RESPONSE"],
  ["NaN in a vector", { kind: "nan" }, "RAG_PROVIDER_BAD_RESPONSE"],
  ["one vector short", { kind: "wrong-count" }, "RAG_PROVIDER_BAD_RESPONSE"],
  ["not JSON", { kind: "not-json" }, "RAG_PROVIDER_BAD_RESPONSE"],
] as const) {
  fileTest(`ollama ${name}: the job fails with ${code}, nothing is stored under ollama, search falls back to full text`, async ({ h, rec, fake }) => {
    fake.behaviour = behaviour;
    assert.is((await switchTo(h, "ollama")).status, 200);
    const job = await reindex(h, rec);
    assert.is(job.status, "failed");
    assert.is(job.error?.code, code);
    const keys = storedKeys(h.home);
    assert.ok(!keys.chunks.some((k) => k.startsWith("ollama:")), keys.chunks.join());
    assert.ok(keys.chunks.includes("hash:fnv1a-words:512"), "the hash index is untouched");
    const res = await h.json<RagSearchBody>("/api/memory/rag?q=invoice%20timeout");
    assert.is(res.status, 200);
    assert.is(res.body.fallback?.code, code);
    assert.is(res.body.results[0]?.path, "memory/2026-11-20.md");
    const cfg = (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.agents[0];
    assert.ok(cfg);
    assert.equal({ dirty: cfg.dirty, vectorReady: cfg.vectorReady, provider: cfg.provider }, { dirty: true, vectorReady: false, provider: "ollama" });
    fake.behaviour = { kind: "ok" };
    assert.is((await switchTo(h, "hash")).status, 200);
    await rec.waitFor("rag.index.finished", (e) => (e.payload as { job: { provider: string; status: string } }).job.provider === "hash", 10_000);
  });
}

fileTest("ollama answering well: vectors stored under ollama:model:dims only, vector search works", async ({ h, rec, fake }) => {
  fake.behaviour = { kind: "ok" };
  fake.received.length = 0;
  assert.is((await switchTo(h, "ollama")).status, 200);
  const job = await reindex(h, rec);
  assert.is(job.status, "done", JSON.stringify(job));
  assert.ok(fake.received.length >= job.total);
  assert.ok(storedKeys(h.home).files.every((k) => k === `ollama:fake-embed:${DIMS}`));
  const res = await h.json<RagSearchBody>("/api/memory/rag?q=soil%20moisture%20greenhouse&mode=vector");
  assert.is(res.status, 200);
  assert.equal({ provider: res.body.provider, fallback: res.body.fallback, top: res.body.results[0]?.path }, { provider: "ollama", fallback: undefined, top: "projects/garden.md" });
});

fileTest("openai: refused 503 without the vault key; with it, the key goes as a bearer token", async ({ h, rec, fake }) => {
  const refused = await switchTo(h, "openai");
  assert.is(refused.status, 503);
  assert.is(refused.body.error?.code, "RAG_PROVIDER_UNAVAILABLE");
  assert.is((await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.config.provider, "ollama");
  const secret = await h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name: "OPENAI_API_KEY", value: "sk-test-rag-123456" } });
  assert.is(secret.status, 201, JSON.stringify(secret.body));
  assert.is((await switchTo(h, "openai")).status, 200);
  const job = await reindex(h, rec);
  assert.is(job.status, "done", JSON.stringify(job));
  assert.ok(fake.authorizations.length > 0 && fake.authorizations.every((a) => a === "Bearer sk-test-rag-123456"));
  assert.ok(storedKeys(h.home).files.every((k) => k === `openai:fake-3:${DIMS}`));
  const res = await h.json<RagSearchBody>("/api/memory/rag?q=interview%20backend%20engineers");
  assert.equal({ provider: res.body.provider, top: res.body.results[0]?.path }, { provider: "openai", top: "company/hiring.md" });
});

t.run();
