import { definePlugin } from "@muster/plugin";
import { memoryConfig, type MemoryConfig } from "./config.ts";
import { memoryRoutes } from "./http/routes.ts";
import { registerMemoryServices } from "./services/register.ts";
import { MEMORY_ROUTES } from "./tokens.ts";

/** Readers of the workspace: daily and long-term memory, documents, the organisation file. */
export const memoryPlugin = definePlugin<MemoryConfig>({
  id: "memory",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/memory", "/api/docs", "/api/org-structure"],
  config: memoryConfig,
  // Other plugins serve routes under /api/memory/ through it (the rag plugin's /api/memory/rag and /api/memory/config).
  extensionPoints: [MEMORY_ROUTES],
  register: registerMemoryServices,
  routes: memoryRoutes,
});

export default memoryPlugin;
