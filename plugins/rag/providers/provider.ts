/** One embedding backend. `embed` returns one vector per text, or throws a coded MusterError. */
export interface EmbeddingProvider {
  readonly id: ProviderId;
  readonly name: string;
  readonly model: string;
  readonly dimensions: number;
  /** Why it cannot be used now (missing model files, no key), or null when it can. */
  unavailableReason(): string | null;
  /**
   * `urgent`: a search request waits for this one (a query's embedding); a provider with a
   * queue of its own (local's worker) answers it ahead of the re-index's batches.
   */
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /**
   * Providers with word vectors also rank the stored chunks by soft word matching (soft
   * BM25, providers/soft-match.ts), a third ranker of hybrid search. Throws a coded
   * MusterError when it cannot answer; search then fuses the other rankers only.
   */
  wordMatch?(query: string, corpus: ChunkCorpus, limit: number): Promise<{ id: number; score: number }[]>;
  close?(): Promise<void>;
}

export interface EmbedOptions {
  urgent?: boolean;
}

export const PROVIDER_IDS = ["local", "hash", "ollama", "openai"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** Vectors of different providers, models or sizes never meet: every stored vector carries this key. */
export const providerKey = (p: Pick<EmbeddingProvider, "id" | "model" | "dimensions">) => `${p.id}:${p.model}:${p.dimensions}`;

/** The stored chunks of the active provider: their ids, and their texts on demand. */
export interface ChunkCorpus {
  ids: readonly number[];
  /**
   * No indexing job is changing the store: a matcher catches up before answering. While one
   * runs, it answers from the corpus it last caught up with (chunks added since are still
   * found by the other rankers) and catches up in the background, so queries stay fast.
   */
  settled: boolean;
  texts(ids: number[]): Promise<Map<number, string>>;
}
