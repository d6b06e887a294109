import { token } from "@muster/plugin";
import type { IndexJob } from "./services/index-job.ts";
import type { AgentMode, AgentMemoryStatus, MemoryConfigView, ProviderInfo, RagAnswer, SearchMode } from "./services/rag-types.ts";

export type { AgentMode, AgentMemoryStatus, IndexJob, MemoryConfigView, ProviderInfo, RagAnswer, SearchMode };

/** Semantic search over workspace and memory markdown, and the memory configuration. */
export interface SemanticSearch {
  /** Loads the configuration and queues an incremental job when enabled (resume after a restart). */
  start(): Promise<void>;
  search(q: string, options: { agent: string; limit: number; mode: SearchMode }): Promise<RagAnswer>;
  /**
   * Queues an indexing job (or returns the queued one); never waits for it. In team mode only
   * the primary instance indexes: another instance records the request for it.
   */
  reindex(options: { agent: string; force: boolean }): Promise<IndexJob>;
  /** The configuration, the index status per agent, the providers, and the running or last job (null before any). */
  config(): Promise<{ config: MemoryConfigView; agents: AgentMemoryStatus[]; providers: ProviderInfo[]; job: IndexJob | null }>;
  configure(change: { provider?: string; enabled?: boolean; agentModes?: Record<string, AgentMode> }): Promise<MemoryConfigView>;
  /**
   * Team mode, every 2 s on every instance: reads the configuration another instance may have
   * changed; the primary runs the jobs others asked for, and one job when it has just become
   * primary; the others notice vectors the primary stored.
   */
  followTeam(): Promise<void>;
  /** A change in the workspace: the primary indexes it (every instance sees the change; one indexes it). */
  changed(): Promise<void>;
  stop(): Promise<void>;
}

export const RAG = token<SemanticSearch>("rag.search");
