// The `local` provider's worker thread: loads the word vectors (from the binary cache, or by
// converting the package's JSON once and writing the cache), then encodes batches in order.
// Reads only local files; nothing is ever downloaded.
import { parentPort, workerData } from "node:worker_threads";
import type { WorkerReply, WorkerRequest, WorkerSetup } from "./local-protocol.ts";
import { SentenceEncoder } from "./sentence-encoder.ts";
import { SoftMatchIndex } from "./soft-match.ts";
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

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

let encoder: SentenceEncoder | undefined;
let softMatch: SoftMatchIndex | undefined;
try {
  const started = performance.now();
  const { vectors, source, rebuiltBecause } = load();
  encoder = new SentenceEncoder(vectors);
  softMatch = new SoftMatchIndex(encoder, vectors);
  sampleRss();
  reply({ type: "ready", source, ms: Math.round(performance.now() - started), peakRssMb: Math.round(peakRss / 1e6), ...(rebuiltBecause ? { rebuiltBecause } : {}) });
} catch (error) {
  reply({ type: "failed", reason: `cannot load the word vectors: ${message(error)}` });
}

/** The reply to one request; a failure answers the same request with its error. */
function answer(m: WorkerRequest): WorkerReply {
  const type = m.type === "corpus" ? "corpus" : m.type === "match" ? "matches" : "vectors";
  try {
    if (m.type === "corpus") {
      for (const id of m.remove) softMatch!.remove(id);
      for (const c of m.add) softMatch!.add(c.id, c.text);
      return { type: "corpus", id: m.id };
    }
    if (m.type === "match") return { type: "matches", id: m.id, matches: softMatch!.rank(m.query, m.limit) };
    return { type: "vectors", id: m.id, vectors: m.texts.map((t) => Array.from(encoder!.encode(t))) };
  } catch (error) {
    return { type, id: m.id, error: message(error) };
  }
}

parentPort!.on("message", (m: WorkerRequest) => reply(answer(m)));
