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

/** Texts encoded (or added to the soft-match corpus) per turn of a background request. */
const TEXTS_PER_TURN = 4;

/** One request's work: yields between slices of texts; returns its reply (a failure answers the same request with its error). */
function* work(m: WorkerRequest): Generator<void, WorkerReply> {
  const type = m.type === "corpus" ? "corpus" : m.type === "match" ? "matches" : "vectors";
  try {
    if (m.type === "match") return { type: "matches", id: m.id, matches: softMatch!.rank(m.query, m.limit) };
    if (m.type === "corpus") {
      for (const id of m.remove) softMatch!.remove(id);
      for (let i = 0; i < m.add.length; i++) {
        if (i > 0 && i % TEXTS_PER_TURN === 0) yield;
        softMatch!.add(m.add[i]!.id, m.add[i]!.text);
      }
      return { type: "corpus", id: m.id };
    }
    const vectors: number[][] = [];
    for (let i = 0; i < m.texts.length; i++) {
      if (i > 0 && i % TEXTS_PER_TURN === 0) yield;
      vectors.push(Array.from(encoder!.encode(m.texts[i]!)));
    }
    return { type: "vectors", id: m.id, vectors };
  } catch (error) {
    return { type, id: m.id, error: message(error) };
  }
}

// Two queues: a search request waits on a query, a re-index on its batch. One slice of work
// per turn of the event loop, so a query message that arrives meanwhile is read and goes first.
const queries: Generator<void, WorkerReply>[] = [];
const background: Generator<void, WorkerReply>[] = [];
let scheduled = false;

function turn(): void {
  scheduled = false;
  const queue = queries.length > 0 ? queries : background;
  const job = queue[0];
  if (!job) return;
  const step = job.next();
  if (step.done) {
    queue.shift();
    reply(step.value);
  }
  if (queries.length > 0 || background.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(turn);
}

parentPort!.on("message", (m: WorkerRequest) => {
  const urgent = m.type === "match" || (m.type === "embed" && m.urgent === true);
  (urgent ? queries : background).push(work(m));
  schedule();
});
