import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { ragErrors } from "../errors.ts";
import type { EmbeddingProvider } from "./provider.ts";
import { validateVectors } from "./validate.ts";

const require = createRequire(import.meta.url);

function encoderInstalled(): boolean {
  try {
    require.resolve("@huggingface/transformers");
    return true;
  } catch {
    return false;
  }
}

/**
 * The offline sentence encoder in a worker thread (so embedding never blocks requests).
 * Available only when the runtime package is installed and the model files are on disk;
 * nothing is ever downloaded.
 */
export class LocalProvider implements EmbeddingProvider {
  readonly id = "local" as const;
  readonly name = "Local sentence encoder (worker thread, offline)";
  private worker?: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly options: { modelDir?: string; model: string; dimensions: number; timeoutMs: number };
  constructor(options: { modelDir?: string; model: string; dimensions: number; timeoutMs: number }) {
    this.options = options;
  }
  get model() {
    return this.options.model;
  }
  get dimensions() {
    return this.options.dimensions;
  }
  unavailableReason(): string | null {
    if (!encoderInstalled()) return "the package @huggingface/transformers is not installed";
    if (!this.options.modelDir) return "no model directory configured (rag.localModelDir)";
    if (!existsSync(this.options.modelDir)) return `model directory ${this.options.modelDir} does not exist`;
    return null;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    const reason = this.unavailableReason();
    if (reason) throw ragErrors.RAG_PROVIDER_UNAVAILABLE({ provider: this.id, reason });
    const worker = this.start();
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    worker.postMessage({ id, texts });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(ragErrors.RAG_PROVIDER_TIMEOUT({ provider: this.id, timeoutMs: this.options.timeoutMs })), this.options.timeoutMs);
    });
    try {
      return validateVectors(this.id, await Promise.race([answer, timeout]), texts.length, this.dimensions);
    } finally {
      clearTimeout(timer);
      this.pending.delete(id);
    }
  }
  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL("./local-worker.ts", import.meta.url), { workerData: { modelDir: this.options.modelDir } });
    worker.on("message", (m: { id: number; vectors?: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.error) p.reject(ragErrors.RAG_PROVIDER_UNAVAILABLE({ provider: this.id, reason: m.error }));
      else p.resolve(m.vectors);
    });
    worker.on("error", (e) => {
      for (const p of this.pending.values()) p.reject(ragErrors.RAG_PROVIDER_UNAVAILABLE({ provider: this.id, reason: e.message }));
      this.worker = undefined;
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}
