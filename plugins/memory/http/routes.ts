import { z, type PluginContext, type PluginRouter } from "@muster/plugin";
import { mountRagRoutes } from "../../rag/http/routes.ts";
import { ORG_FILE } from "../services/memory-reader.ts";
import { MEMORY_READER } from "../tokens.ts";
import { dailyMemorySchema, documentSchema, listDocsQuery, listMemoryQuery, longTermMemorySchema, orgStructureResponse } from "./schemas.ts";

export function mountMemoryRoutes(router: PluginRouter, ctx: PluginContext): void {
  const reader = () => ctx.resolve(MEMORY_READER);

  router.get(
    "/api/memory",
    {
      summary: "Daily memory files memory/YYYY-MM-DD.md, newest first (limit default 30, max 366)",
      query: listMemoryQuery,
      response: z.array(dailyMemorySchema),
    },
    ({ query }) => reader().daily(query.limit),
  );

  router.get(
    "/api/memory/longterm",
    { summary: "The long-term memory file MEMORY.md (404 MEMORY_LONGTERM_NOT_FOUND when absent)", response: longTermMemorySchema },
    async () => ({ ok: true, ...(await reader().longTerm()) }),
  );

  mountRagRoutes(router, ctx);

  router.get(
    "/api/docs",
    {
      summary: "Markdown and YAML files of the workspace, newest first (limit default 100, max 200; optional category)",
      query: listDocsQuery,
      response: z.array(documentSchema),
    },
    ({ query }) => reader().documents(query),
  );

  router.get(
    "/api/org-structure",
    {
      summary: "The parsed organisation file company/org_structure.yaml",
      description: "404 ORG_FILE_NOT_FOUND when absent; 422 ORG_FILE_INVALID (with line and column) when it does not parse.",
      response: orgStructureResponse,
    },
    async () => {
      const { org, warnings, modifiedAt } = await reader().orgStructure();
      return { ok: true, path: ORG_FILE, modifiedAt, org, warnings };
    },
  );
}
