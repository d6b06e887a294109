/** One embedding backend. `embed` returns one vector per text, or throws a coded MusterError. */
export interface EmbeddingProvider {
  readonly id: ProviderId;
  readonly name: string;
  readonly model: string;
  readonly dimensions: number;
  /** Why it cannot be used now (missing model files, no key), or null when it can. */
  unavailableReason(): string | null;
  embed(texts: string[]): Promise<Float32Array[]>;
  close?(): Promise<void>;
}

export const PROVIDER_IDS = ["local", "hash", "ollama", "openai"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** Vectors of different providers, models or sizes never meet: every stored vector carries this key. */
export const providerKey = (p: Pick<EmbeddingProvider, "id" | "model" | "dimensions">) => `${p.id}:${p.model}:${p.dimensions}`;
