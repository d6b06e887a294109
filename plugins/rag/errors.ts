import { defineErrors } from "@muster/plugin";

/** The rag plugin's error catalogue. */
export const ragErrors = defineErrors("rag", {
  RAG_DISABLED: { status: 409, message: "Semantic search is disabled; enable it by POSTing enabled true to /api/memory/config" },
  RAG_AGENT_MD_ONLY: { status: 409, message: "Agent {agent} uses file memory only (mode md); set its mode to rag or default to search it" },
  RAG_PROVIDER_UNKNOWN: { status: 400, message: "Unknown embedding provider {provider}; use one of {known}" },
  RAG_PROVIDER_UNAVAILABLE: { status: 503, message: "Embedding provider {provider} is unavailable: {reason}" },
  RAG_PROVIDER_TIMEOUT: { status: 504, message: "Embedding provider {provider} did not answer within {timeoutMs} ms" },
  /** Reported in a cancelled job's `error` (GET /api/memory/config, `rag.index.finished`), never as a response. */
  RAG_PROVIDER_SWITCHED: { status: 409, message: "The embedding provider changed during indexing; a new job re-indexes under the new provider" },
  RAG_STOPPED: { status: 503, message: "The server stopped during indexing; the next start resumes where it stopped" },
  RAG_INDEX_FAILED: { status: 500, message: "Indexing failed: {reason}" },
  RAG_PROVIDER_BAD_RESPONSE: { status: 502, message: "Embedding provider {provider} answered unusably: {reason}; nothing was stored" },
});
