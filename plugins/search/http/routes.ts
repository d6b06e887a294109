import { defineRoutes, type PluginRouter } from "@muster/plugin";
import { searchErrors } from "../errors.ts";
import { isLongEnough } from "../domain/query.ts";
import { SEARCH, type WorkspaceSearch } from "../tokens.ts";
import { SEARCH_DEPLOYMENT, type DeploymentSearch } from "../services/team.ts";
import { reindexBody, reindexResponse, searchQuery, searchResponse } from "./schemas.ts";

/** `GET`/`POST /api/search`. */
export const searchRoutes = defineRoutes({
  deps: { index: SEARCH, deployment: SEARCH_DEPLOYMENT },
  mount: (router, { index, deployment }) => mountSearchRoutes(router, index, deployment),
});

/** Searches answer from this instance's index; stats and re-indexing are the deployment's (services/team.ts). */
function mountSearchRoutes(router: PluginRouter, index: WorkspaceSearch, deployment: DeploymentSearch): void {
  router.get(
    "/api/search",
    {
      summary: "Full-text search over the workspace's markdown and YAML files (title boosted, prefix and typo tolerant)",
      query: searchQuery,
      response: searchResponse,
    },
    async ({ query }) => {
      const q = query.q.trim();
      if (!isLongEnough(q)) throw searchErrors.SEARCH_QUERY_TOO_SHORT({}, { details: [{ path: "q", reason: "needs at least 2 letters or digits", in: "query" }] });
      const { total, results } = await index.search(q, { category: query.category, limit: query.limit });
      return { ok: true, query: q, count: results.length, total, results, stats: await deployment.stats() };
    },
  );

  router.post(
    "/api/search",
    { summary: "Rebuild the whole search index from the workspace (no body, or an empty JSON object)", body: reindexBody, response: reindexResponse },
    async () => ({ ok: true, ...(await deployment.reindex()) }),
  );
}
