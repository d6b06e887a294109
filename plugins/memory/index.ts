import { definePlugin } from "@muster/plugin";
import { memoryConfig, type MemoryConfig } from "./config.ts";
import { mountMemoryRoutes } from "./http/routes.ts";
import { registerMemoryServices } from "./services/register.ts";

/** Readers of the workspace: daily and long-term memory, documents, the organisation file. */
export const memoryPlugin = definePlugin<MemoryConfig>({
  id: "memory",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/memory", "/api/docs", "/api/org-structure"],
  config: memoryConfig,
  register: registerMemoryServices,
  routes: mountMemoryRoutes,
});

export default memoryPlugin;
