import { token } from "@muster/plugin";
import type { IndexJob } from "./services/index-job.ts";
import type { AgentMode, AgentMemoryStatus, MemoryConfigView, ProviderInfo, RagAnswer, SearchMode } from "./services/rag-types.ts";

export type { AgentMode, AgentMemoryStatus, IndexJob, MemoryConfigView, ProviderInfo, RagAnswer, SearchMode };

/** Semantic search over workspace and memory markdown, and the memory configuration. */
export interface SemanticSearch {
  /** Loads the configuration and queues an incremental job when enabled (resume after a restart). */
  start(): Promise<void>;
  search(q: string, options: { agent: string; limit: number; mode: SearchMode }): Promise<RagAnswer>;
  /** Queues an indexing job (or returns the running one); never waits for it. */
  reindex(options: { agent: string; force: boolean }): IndexJob;
  /** The configuration, the index status per agent, the providers, and the running or last job (null before any). */
  config(): Promise<{ config: MemoryConfigView; agents: AgentMemoryStatus[]; providers: ProviderInfo[]; job: IndexJob | null }>;
  configure(change: { provider?: string; enabled?: boolean; agentModes?: Record<string, AgentMode> }): Promise<MemoryConfigView>;
  stop(): Promise<void>;
}

export const RAG = token<SemanticSearch>("rag.search");
