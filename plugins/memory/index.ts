import { contribute, definePlugin, hostPoints } from "@muster/plugin";
import { memoryConfig, type MemoryConfig } from "./config.ts";
import { mountMemoryRoutes } from "./http/routes.ts";
import { registerMemoryServices } from "./services/register.ts";

/** Readers of the workspace: daily and long-term memory, documents, the organisation file. */
export const memoryPlugin = definePlugin<MemoryConfig>({
  id: "memory",
  version: "1.0.0",
  host: "^1.0.0",
  // /api/memory/rag and /api/memory/config are the rag plugin's routes, mounted here because
  // this plugin owns the /api/memory prefix; without the rag plugin they answer 503.
  optionalDependsOn: ["rag"],
  paths: ["/api/memory", "/api/docs", "/api/org-structure"],
  config: memoryConfig,
  register: registerMemoryServices,
  routes: mountMemoryRoutes,
  // MCP tools (docs/mcp.md).
  contributions: [
    contribute(hostPoints.mcpTools, { name: "memory_daily", title: "Daily memory files", scope: "read", method: "GET", path: "/api/memory" }),
    contribute(hostPoints.mcpTools, { name: "memory_longterm", title: "Long-term memory", scope: "read", method: "GET", path: "/api/memory/longterm" }),
  ],
});

export default memoryPlugin;
