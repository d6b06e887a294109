import { z } from "@muster/plugin";

/** `config.rag` in muster.config.json: where the embedding providers live and how long to wait for them. */
export const ragConfig = z.strictObject({
  /** Per request to an embedding provider (one batch); a slower answer fails the batch (RAG_PROVIDER_TIMEOUT). */
  timeoutMs: z.number().int().min(100).max(120_000).default(15_000),
  /** Chunks sent to a provider in one request. */
  batchSize: z.number().int().min(1).max(512).default(32),
  /** Dimensions of the `hash` provider's vectors. */
  hashDimensions: z.number().int().min(16).max(4096).default(512),
  ollamaUrl: z.url().default("http://127.0.0.1:11434"),
  ollamaModel: z.string().min(1).default("nomic-embed-text"),
  ollamaDimensions: z.number().int().min(1).max(8192).default(768),
  /** Any OpenAI-compatible base URL (without `/v1`). */
  openaiBaseUrl: z.url().default("https://api.openai.com"),
  openaiModel: z.string().min(1).default("text-embedding-3-small"),
  openaiDimensions: z.number().int().min(1).max(8192).default(1536),
  /** Vault secret holding the OpenAI key (never read from the environment). */
  openaiKeySecret: z.string().min(1).default("OPENAI_API_KEY"),
  /**
   * Where `local` keeps its binary word-vector cache (converted once from the package's JSON).
   * Default: `<MUSTER_HOME>/cache/rag`.
   */
  localCacheDir: z.string().min(1).optional(),
  /** Markdown files larger than this are not indexed. */
  maxFileBytes: z.number().int().min(1024).default(500_000),
  /** A guard against runaway trees: files visited per indexing job at most. */
  maxFiles: z.number().int().min(1).default(50_000),
  /** Wait after a watcher change before re-indexing, so a burst of saves makes one job. */
  watchDebounceMs: z.number().int().min(0).max(60_000).default(500),
});

export type RagConfig = z.output<typeof ragConfig>;
