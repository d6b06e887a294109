import type { PluginContext, PluginRouter } from "@muster/plugin";
import { RAG } from "../tokens.ts";
import { configBody, configResponse, configUpdateResponse, ragQuery, ragResponse, reindexBody, reindexResponse } from "./schemas.ts";

/**
 * `/api/memory/rag` and `/api/memory/config`. The memory plugin owns the `/api/memory`
 * prefix (plugin paths may not overlap), so it mounts these on its router; they resolve the
 * rag plugin's service, which `ctx` must list as an (optional) dependency.
 */
export function mountRagRoutes(router: PluginRouter, ctx: PluginContext): void {
  // Without the rag plugin loaded the paths are simply not served (404), not a wiring error.
  if (!ctx.has(RAG)) return;
  const rag = () => ctx.resolve(RAG);
  router.get(
    "/api/memory/rag",
    { summary: "Semantic search over workspace and memory markdown (vector and full-text ranks fused)", query: ragQuery, response: ragResponse, tags: ["rag"] },
    ({ query }) => rag().search(query.q, { agent: query.agent, limit: query.limit, mode: query.mode }),
  );
  router.post(
    "/api/memory/rag",
    { summary: "Queues incremental re-indexing (force: every file); answers at once with the job", body: reindexBody, response: reindexResponse, status: 202, tags: ["rag"] },
    ({ body }) => ({ ok: true, job: rag().reindex({ agent: body.agent, force: body.force }) }),
  );
  router.get(
    "/api/memory/config",
    { summary: "Memory configuration: provider, enabled, per-agent index status and modes, providers", response: configResponse, tags: ["rag"] },
    async () => ({ ok: true, ...(await rag().config()) }),
  );
  router.post(
    "/api/memory/config",
    { summary: "Sets the embedding provider, enables or disables semantic search, and per-agent modes", body: configBody, response: configUpdateResponse, tags: ["rag"] },
    async ({ body }) => ({ ok: true, config: await rag().configure(body) }),
  );
}
