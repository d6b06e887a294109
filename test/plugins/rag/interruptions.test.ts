// Indexing interrupted: a provider switch mid-job, a server stopped mid-job (it resumes with
// the files it had not finished, never mixing vectors), and files deleted while embedded.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { removeHome } from "../../helpers/start-test-host.ts";
import { startEmbeddingFake } from "../../helpers/embedding-fakes/server.ts";
import { startRagHost, storedKeys } from "./helpers.ts";
import { sqliteFileTest } from "../../helpers/database-file.ts";
import type { ApiBody } from "@muster/plugin/testing";

const DIMS = 32;
const t = suite("rag interruptions");
const many: Record<string, string> = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`memory/notes-${i}.md`, `# Note ${i}\n\nTopic number ${i} about subject${i} and more words.\n`]));
type Job = { id: string; status: string; done: number; total: number; provider: string; error?: { code: string } };

sqliteFileTest(t, "reads the vector keys stored in muster.db")("a provider switch mid-index cancels the job (RAG_PROVIDER_SWITCHED); the new provider re-indexes; keys never mix", async () => {
  const fake = await startEmbeddingFake({ dimensions: DIMS, behaviour: { kind: "slow", delayMs: 150 } });
  const { h, rec } = await startRagHost({ files: many, rag: { batchSize: 1, timeoutMs: 5_000, ollamaUrl: fake.url, ollamaDimensions: DIMS } });
  try {
    await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "ollama", enabled: true } });
    await rec.waitFor("rag.index.progress", (e) => (e.payload as { job: Job }).job.done >= 1, 10_000);
    const sw = await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "hash" } });
    assert.is(sw.status, 200);
    const cancelled = await rec.waitFor("rag.index.finished", (e) => (e.payload as { job: Job }).job.provider === "ollama", 10_000);
    const job = (cancelled.payload as { job: Job }).job;
    assert.equal({ status: job.status, code: job.error?.code }, { status: "cancelled", code: "RAG_PROVIDER_SWITCHED" });
    assert.ok(job.done < job.total);
    await rec.waitFor("rag.index.finished", (e) => (e.payload as { job: Job }).job.provider === "hash" && (e.payload as { job: Job }).job.status === "done", 10_000);
    const keys = storedKeys(h.home);
    assert.equal(keys, { files: ["hash:fnv1a-words:512"], chunks: ["hash:fnv1a-words:512"] });
    const cfg = (await h.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.agents[0];
    assert.ok(cfg);
    assert.is(cfg.indexed, cfg.total);
  } finally {
    await h.stop();
    await fake.close();
    removeHome(h.home);
  }
});

sqliteFileTest(t, "reads the vector keys stored in muster.db")("a server stopped mid-index resumes on restart with only the unfinished files; each file is whole", async () => {
  const fake = await startEmbeddingFake({ dimensions: DIMS, behaviour: { kind: "slow", delayMs: 100 } });
  const rag = { batchSize: 1, timeoutMs: 5_000, ollamaUrl: fake.url, ollamaDimensions: DIMS };
  const { h, rec } = await startRagHost({ files: many, rag });
  let h2;
  try {
    await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "ollama", enabled: true } });
    const progress = await rec.waitFor("rag.index.progress", (e) => (e.payload as { job: Job }).job.done >= 2, 10_000);
    const total = (progress.payload as { job: Job }).job.total;
    await h.stop();
    const stopped = storedKeys(h.home);
    assert.ok(stopped.files.every((k) => k === `ollama:nomic-embed-text:${DIMS}`));
    const again = await startRagHost({ home: h.home, workspace: h.workspace, rag });
    h2 = again.h;
    const resumed = await again.rec.waitFor("rag.index.finished", () => true, 15_000);
    const job = (resumed.payload as { job: Job }).job;
    assert.is(job.status, "done");
    assert.ok(job.total > 0 && job.total < total, `resumed ${job.total} of ${total}`);
    const cfg = (await h2.json<ApiBody<"getMemoryConfig">>("/api/memory/config")).body.agents[0];
    assert.ok(cfg);
    assert.is(cfg.indexed, cfg.total);
    assert.equal(storedKeys(h.home).chunks, [`ollama:nomic-embed-text:${DIMS}`]);
  } finally {
    await h2?.stop();
    await fake.close();
    removeHome(h.home);
  }
});

t("a file deleted while it is being embedded leaves no chunks behind", async () => {
  const fake = await startEmbeddingFake({ dimensions: DIMS, behaviour: { kind: "slow", delayMs: 300 } });
  const { h, rec } = await startRagHost({ files: { "memory/doomed.md": "# Doomed\n\nThis file is deleted while the provider embeds it.\n" }, rag: { batchSize: 1, timeoutMs: 5_000, ollamaUrl: fake.url, ollamaDimensions: DIMS } });
  try {
    await h.json<ApiBody<"postMemoryConfig">>("/api/memory/config", { method: "POST", body: { provider: "ollama", enabled: true } });
    // The first embed request of the doomed file has arrived: delete it before the answer.
    const { waitUntil } = await import("../../helpers/wait.ts");
    await waitUntil(() => fake.received.some((t) => t.includes("Doomed")), { timeoutMs: 10_000 });
    rmSync(join(h.workspace, "memory/doomed.md"));
    await rec.waitFor("rag.index.finished", (e) => (e.payload as { job: Job }).job.status === "done", 15_000);
    const res = await h.json<ApiBody<"getMemoryRag">>("/api/memory/rag?q=doomed%20provider%20embeds&mode=vector");
    assert.ok(!res.body.results.some((r: { path: string }) => r.path === "memory/doomed.md"));
  } finally {
    await h.stop();
    await fake.close();
    removeHome(h.home);
  }
});

t.run();
