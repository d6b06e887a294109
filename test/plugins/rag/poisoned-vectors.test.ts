// Issue 22 finding 7: a provider answering finite doubles that are not usable as 32-bit floats
// (1e308 overflows to Infinity and normalising makes every component NaN; 1e-46 underflows to
// a zero vector) used to pass validation: the job said `done` and every stored vector was
// NaN. Against a real HTTP fake of Ollama's /api/embed on 127.0.0.1, each such answer (and a
// zero vector, and a wrong length) must fail the job with a coded error visible in the job
// status, and leave the vectors stored before byte for byte as they were.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import { onPostgres, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import type { EventRecorder } from "../../helpers/wait.ts";
import { startEmbeddingFake, type EmbeddingFake, type FakeBehaviour } from "../../helpers/embedding-fakes/server.ts";
import { type RagSearchBody, finished, startRagHost, writeCorpus } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const DIMS = 32;
const t = suite<{ h: TestHost; rec: EventRecorder; fake: EmbeddingFake; before: string[]; workspace: string }>("rag poisoned vectors");

/** Every stored chunk vector (hex), and whether each of its Float32 components is finite (vectors at rest: no route shows them). */
function storedVectors(home: string): { hex: string[]; allFinite: boolean } {
  const db = new Database(join(home, "muster.db"), { readonly: true });
  try {
    const rows = db.prepare("SELECT vector FROM rag_chunks ORDER BY path, startLine").all() as { vector: Buffer }[];
    const allFinite = rows.every(({ vector }) => new Float32Array(vector.buffer, vector.byteOffset, vector.byteLength / 4).every(Number.isFinite));
    return { hex: rows.map((r) => r.vector.toString("hex")), allFinite };
  } finally {
    db.close();
  }
}

/** Every test here, and the setup, compare the vectors stored in muster.db. */
const fileTest = sqliteFileTest(t, "compares the vectors stored in muster.db");

t.before(async (ctx) => {
  if (onPostgres) return;
  ctx.fake = await startEmbeddingFake({ dimensions: DIMS });
  // The corpus is on disk before the host starts: written after, its files came back as
  // changes (the watcher's scan and its events, late on a loaded machine), and the re-index
  // each queued could replace a test's own job as the one the status reports.
  ctx.workspace = mkdtempSync(join(tmpdir(), "muster-rag-poison-ws-"));
  writeCorpus(ctx.workspace);
  Object.assign(ctx, await startRagHost({ workspace: ctx.workspace, rag: { timeoutMs: 5_000, ollamaUrl: ctx.fake.url, ollamaModel: "fake-embed", ollamaDimensions: DIMS } }));
  const on = await ctx.h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "ollama", enabled: true } });
  assert.is(on.status, 200);
  await ctx.rec.waitFor("rag.index.finished", (e) => (e.payload as { job: { status: string; provider: string } }).job.provider === "ollama", 10_000);
  const stored = storedVectors(ctx.h.home);
  assert.ok(stored.hex.length > 0 && stored.allFinite, "a good first index under ollama");
  ctx.before = stored.hex;
});
t.after(async (ctx) => {
  if (onPostgres) return;
  await ctx.h.stop();
  await ctx.fake.close();
  removeHome(ctx.h.home);
  rmSync(ctx.workspace, { recursive: true, force: true });
});

const poisons: [string, FakeBehaviour][] = [
  ["1e308 in every component (Infinity as a 32-bit float, NaN once normalised)", { kind: "constant", value: 1e308 }],
  ["1e39 in every component (just past the 32-bit range)", { kind: "constant", value: 1e39 }],
  ["1e-46 in every component (0 as a 32-bit float)", { kind: "constant", value: 1e-46 }],
  ["a zero vector", { kind: "constant", value: 0 }],
  ["the wrong length", { kind: "wrong-dimensions", dimensions: DIMS - 1 }],
];

for (const [name, behaviour] of poisons) {
  fileTest(`${name}: the job fails with RAG_PROVIDER_BAD_RESPONSE in its status, the stored vectors stay as they were`, async ({ h, rec, fake, before }) => {
    fake.behaviour = behaviour;
    const queued = await h.json<ApiBody<"postMemoryRag">>("/api/memory/rag", { method: "POST", body: { force: true } });
    assert.is(queued.status, 202);
    const job = await finished(rec, queued.body.job.id);
    assert.is(job.status, "failed", JSON.stringify(job));
    assert.is(job.error?.code, "RAG_PROVIDER_BAD_RESPONSE");
    // The job status API says so too (GET /api/memory/config `job`).
    const status = await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config");
    assert.ok(status.body.job);
    assert.is(status.body.job.id, queued.body.job.id);
    assert.is(status.body.job.status, "failed");
    assert.is(status.body.job.error?.code, "RAG_PROVIDER_BAD_RESPONSE");
    assert.ok(status.body.agents[0]?.dirty, "a failed job leaves the index marked dirty");
    const after = storedVectors(h.home);
    assert.ok(after.allFinite, "no NaN or Infinity stored");
    assert.equal(after.hex, before, "the vectors stored before are untouched");
    // A query embedded by the same poisoned provider falls back to full text, with the code.
    const poisoned = await h.json<RagSearchBody>("/api/memory/rag?q=soil%20moisture%20greenhouse");
    assert.is(poisoned.status, 200);
    assert.is(poisoned.body.fallback?.code, "RAG_PROVIDER_BAD_RESPONSE");
    // With the provider healthy again, vector search over the kept vectors still works.
    fake.behaviour = { kind: "ok" };
    const healthy = await h.json<RagSearchBody>("/api/memory/rag?q=soil%20moisture%20greenhouse&mode=vector");
    assert.equal({ fallback: healthy.body.fallback, top: healthy.body.results[0]?.path }, { fallback: undefined, top: "projects/garden.md" });
    assert.ok(healthy.body.results.every((r: { score: number }) => Number.isFinite(r.score)), "finite scores");
  });
}

t.run();
