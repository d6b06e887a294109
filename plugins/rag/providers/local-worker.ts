// The `local` provider's worker thread: loads the word vectors (from the binary cache, or by
// converting the package's JSON once and writing the cache), then encodes batches in order.
// Reads only local files; nothing is ever downloaded.
import { parentPort, workerData } from "node:worker_threads";
import type { WorkerReply, WorkerSetup } from "./local-protocol.ts";
import { SentenceEncoder } from "./sentence-encoder.ts";
import { convertJson, readCache, writeCache, type WordVectors } from "./word-vector-cache.ts";

const { jsonPath, cachePath } = workerData as WorkerSetup;
const reply = (m: WorkerReply) => parentPort!.postMessage(m);

/** The process's peak resident memory seen while loading (the conversion's cost, reported in the log). */
let peakRss = 0;
const sampleRss = () => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
};

function load(): { vectors: WordVectors; source: "cache" | "converted"; rebuiltBecause?: string } {
  const cached = readCache(cachePath);
  if (!("invalid" in cached)) return { vectors: cached, source: "cache" };
  const vectors = convertJson(jsonPath, sampleRss);
  writeCache(cachePath, vectors);
  return { vectors, source: "converted", rebuiltBecause: cached.invalid };
}

let encoder: SentenceEncoder | undefined;
try {
  const started = performance.now();
  const { vectors, source, rebuiltBecause } = load();
  encoder = new SentenceEncoder(vectors);
  sampleRss();
  reply({ type: "ready", source, ms: Math.round(performance.now() - started), peakRssMb: Math.round(peakRss / 1e6), ...(rebuiltBecause ? { rebuiltBecause } : {}) });
} catch (error) {
  reply({ type: "failed", reason: `cannot load the word vectors: ${error instanceof Error ? error.message : String(error)}` });
}

parentPort!.on("message", ({ id, texts }: { id: number; texts: string[] }) => {
  try {
    reply({ type: "vectors", id, vectors: texts.map((t) => Array.from(encoder!.encode(t))) });
  } catch (error) {
    reply({ type: "vectors", id, error: error instanceof Error ? error.message : String(error) });
  }
});
