import { ragErrors } from "../errors.ts";
import type { EmbeddingProvider } from "./provider.ts";
import { postJson } from "./http-embed.ts";
import { validateVectors } from "./validate.ts";

/**
 * Any OpenAI-compatible `POST /v1/embeddings { model, input }` → `{ data: [{ index, embedding }] }`.
 * The key is read from the vault at each call, so rotating it needs no restart.
 */
export class OpenAiProvider implements EmbeddingProvider {
  readonly id = "openai" as const;
  readonly name = "OpenAI-compatible (/v1/embeddings)";
  private readonly options: { baseUrl: string; model: string; dimensions: number; timeoutMs: number; apiKey: () => string | null; keyName: string };
  constructor(options: OpenAiProvider["options"]) {
    this.options = options;
  }
  get model() {
    return this.options.model;
  }
  get dimensions() {
    return this.options.dimensions;
  }
  unavailableReason(): string | null {
    return this.options.apiKey() ? null : `no vault secret ${this.options.keyName}`;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    const key = this.options.apiKey();
    if (!key) throw ragErrors.RAG_PROVIDER_UNAVAILABLE({ provider: this.id, reason: `no vault secret ${this.options.keyName}` });
    const base = this.options.baseUrl.replace(/\/+$/, "");
    const body = await postJson(this.id, `${base}/v1/embeddings`, { model: this.model, input: texts }, { timeoutMs: this.options.timeoutMs, headers: { authorization: `Bearer ${key}` } });
    const data = (body as { data?: unknown } | null)?.data;
    // Entries may arrive in any order; `index` says which text each belongs to.
    const ordered = Array.isArray(data)
      ? [...data].sort((a, b) => Number((a as { index?: number })?.index ?? 0) - Number((b as { index?: number })?.index ?? 0)).map((d) => (d as { embedding?: unknown })?.embedding)
      : data;
    return validateVectors(this.id, ordered, texts.length, this.dimensions);
  }
}
