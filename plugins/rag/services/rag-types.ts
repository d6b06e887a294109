export type AgentMode = "rag" | "md" | "default";
export type SearchMode = "hybrid" | "vector" | "fulltext";

export interface MemoryConfigView {
  provider: string;
  enabled: boolean;
  agentModes: Record<string, AgentMode>;
}

/** Spec: Memory configuration, agents[]. One shared index serves every agent, so counts agree across agents. */
export interface AgentMemoryStatus {
  agentId: string;
  provider: string;
  indexed: number;
  total: number;
  chunks: number;
  dirty: boolean;
  vectorReady: boolean;
  mode: AgentMode;
}

export interface ProviderInfo {
  id: string;
  name: string;
  available: boolean;
  model: string;
  dimensions: number;
  reason?: string;
}

export interface RagResult {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  excerpt: string;
}

export interface RagAnswer {
  ok: true;
  query: string;
  agent: string;
  provider: string;
  mode: SearchMode;
  /** Set when the provider failed and results are full-text only (the coded reason). */
  fallback?: { code: string; message: string };
  results: RagResult[];
}
