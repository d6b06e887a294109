import { fileURLToPath } from "node:url";
import { contribute, definePlugin, hostPoints } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { memoryConfig, type MemoryConfig } from "./config.ts";
import { memoryRoutes } from "./http/routes.ts";
import { registerMemoryServices } from "./services/register.ts";
import { MEMORY_ROUTES } from "./tokens.ts";

/** Readers of the workspace: daily and long-term memory, documents, the organisation file. */
export const memoryPlugin = definePlugin<MemoryConfig>({
  id: "memory",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["dashboard"],
  paths: ["/api/memory", "/api/docs", "/api/org-structure"],
  config: memoryConfig,
  // Other plugins serve routes under /api/memory/ through it (the rag plugin's /api/memory/rag and /api/memory/config).
  extensionPoints: [MEMORY_ROUTES],
  register: registerMemoryServices,
  routes: memoryRoutes,
  // MCP tools (docs/mcp.md).
  contributions: [
    contribute(hostPoints.mcpTools, { name: "memory_daily", title: "Daily memory files", scope: "read", method: "GET", path: "/api/memory" }),
    contribute(hostPoints.mcpTools, { name: "memory_longterm", title: "Long-term memory", scope: "read", method: "GET", path: "/api/memory/longterm" }),
    contribute(CONSOLE_PAGES, {
      id: "memory",
      title: "Memory",
      group: "knowledge",
      order: 20,
      module: fileURLToPath(new URL("./console/memory-page.ts", import.meta.url)),
      // The page follows the stream's file_change messages itself (useResource); no event family to name here.
      events: [],
    }),
    contribute(CONSOLE_PAGES, {
      id: "documents",
      title: "Documents",
      group: "knowledge",
      order: 30,
      module: fileURLToPath(new URL("./console/documents-page.ts", import.meta.url)),
      // Follows the stream's file_change messages (and skill imports, which write skills/*.md) itself.
      events: ["skills.skill.imported"],
    }),
  ],
});

export default memoryPlugin;
