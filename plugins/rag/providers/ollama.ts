import type { EmbeddingProvider } from "./provider.ts";
import { postJson } from "./http-embed.ts";
import { validateVectors } from "./validate.ts";

/** Ollama's `POST /api/embed { model, input: [...] }` → `{ embeddings: [[...]] }`. */
export class OllamaProvider implements EmbeddingProvider {
  readonly id = "ollama" as const;
  readonly name = "Ollama (/api/embed)";
  private readonly options: { url: string; model: string; dimensions: number; timeoutMs: number };
  constructor(options: { url: string; model: string; dimensions: number; timeoutMs: number }) {
    this.options = options;
  }
  get model() {
    return this.options.model;
  }
  get dimensions() {
    return this.options.dimensions;
  }
  unavailableReason(): null {
    return null;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    const body = await postJson(this.id, new URL("/api/embed", this.options.url).href, { model: this.model, input: texts }, { timeoutMs: this.options.timeoutMs });
    return validateVectors(this.id, (body as { embeddings?: unknown } | null)?.embeddings, texts.length, this.dimensions);
  }
}
