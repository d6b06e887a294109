import { defineRoutes, z, type Contributed, type PluginRouter } from "@muster/plugin";
import { ORG_FILE } from "../services/memory-reader.ts";
import { MEMORY_READER, MEMORY_ROUTES, type WorkspaceMemory } from "../tokens.ts";
import { underMemoryPrefix } from "./contributed-routes.ts";
import { dailyMemorySchema, docsIndexQuery, docsIndexResponse, documentSchema, listDocsQuery, listMemoryQuery, longTermMemorySchema, orgStructureResponse } from "./schemas.ts";

/** Memory, documents and the organisation file, with the routes other plugins contribute under `/api/memory/`. */
export const memoryRoutes = defineRoutes({
  deps: { reader: MEMORY_READER, contributed: MEMORY_ROUTES.contributions },
  mount: (router, { reader, contributed }) => mountMemoryRoutes(router, reader, contributed),
});

function mountMemoryRoutes(router: PluginRouter, reader: WorkspaceMemory, contributed: readonly Contributed<(router: PluginRouter) => void>[]): void {
  router.get(
    "/api/memory",
    {
      summary: "Daily memory files memory/YYYY-MM-DD.md, newest first (limit default 30, max 366)",
      query: listMemoryQuery,
      response: z.array(dailyMemorySchema),
    },
    ({ query }) => reader.daily(query.limit),
  );

  router.get(
    "/api/memory/longterm",
    { summary: "The long-term memory file MEMORY.md (404 MEMORY_LONGTERM_NOT_FOUND when absent)", response: longTermMemorySchema },
    async () => ({ ok: true, ...(await reader.longTerm()) }),
  );

  // Here, between the memory routes and the documents, so the OpenAPI document keeps its order.
  for (const { plugin, value: mount } of contributed) mount(underMemoryPrefix(router, plugin));

  router.get(
    "/api/docs",
    {
      summary: "Markdown and YAML files of the workspace, newest first (limit default 100, max 200; optional category; optional path for one document)",
      query: listDocsQuery,
      response: z.array(documentSchema),
    },
    ({ query }) => reader.documents(query),
  );

  // Additive (not in the spec): a list without contents, for pages that show many documents.
  router.get(
    "/api/docs/index",
    {
      summary: "Every markdown and YAML file's name, path, category, size and time changed, newest first, without reading them; counts per category (limit default 1000, max 10000)",
      query: docsIndexQuery,
      response: docsIndexResponse,
    },
    async ({ query }) => ({ ok: true, ...(await reader.documentIndex(query)) }),
  );

  router.get(
    "/api/org-structure",
    {
      summary: "The parsed organisation file company/org_structure.yaml",
      description: "404 ORG_FILE_NOT_FOUND when absent; 422 ORG_FILE_INVALID (with line and column) when it does not parse.",
      response: orgStructureResponse,
    },
    async () => {
      const { org, warnings, modifiedAt } = await reader.orgStructure();
      return { ok: true, path: ORG_FILE, modifiedAt, org, warnings };
    },
  );
}
