import { contributeWith, type PluginRouter } from "@muster/plugin";
import { MEMORY_ROUTES } from "../../memory/tokens.ts";
import { RAG, type SemanticSearch } from "../tokens.ts";
import { configBody, configResponse, configUpdateResponse, ragQuery, ragResponse, reindexBody, reindexResponse } from "./schemas.ts";

/**
 * `/api/memory/rag` and `/api/memory/config`. The memory plugin owns the `/api/memory`
 * prefix (plugin paths may not overlap), so these are contributed to its MEMORY_ROUTES point
 * and it mounts them on its router; without the memory plugin they are not served.
 */
export const ragRoutes = contributeWith(MEMORY_ROUTES, {
  deps: { rag: RAG },
  create: ({ rag }) => (router: PluginRouter) => mountRagRoutes(router, rag),
});

function mountRagRoutes(router: PluginRouter, rag: SemanticSearch): void {  router.get(
    "/api/memory/rag",
    { summary: "Semantic search over workspace and memory markdown (vector and full-text ranks fused)", query: ragQuery, response: ragResponse, tags: ["rag"] },
    ({ query }) => rag.search(query.q, { agent: query.agent, limit: query.limit, mode: query.mode }),
  );
  router.post(
    "/api/memory/rag",
    { summary: "Queues incremental re-indexing (force: every file); answers at once with the job", body: reindexBody, response: reindexResponse, status: 202, tags: ["rag"] },
    async ({ body }) => ({ ok: true, job: await rag.reindex({ agent: body.agent, force: body.force }) }),
  );
  router.get(
    "/api/memory/config",
    { summary: "Memory configuration: provider, enabled, per-agent index status and modes, providers", response: configResponse, tags: ["rag"] },
    async () => ({ ok: true, ...(await rag.config()) }),
  );
  router.post(
    "/api/memory/config",
    { summary: "Sets the embedding provider, enables or disables semantic search, and per-agent modes", body: configBody, response: configUpdateResponse, tags: ["rag"] },
    async ({ body }) => ({ ok: true, config: await rag.configure(body) }),
  );
}
