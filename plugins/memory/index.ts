import { definePlugin, defineService } from "@muster/plugin";
import { memoryConfig, type MemoryConfig } from "./config.ts";
import { mountMemoryRoutes } from "./http/routes.ts";
import { MemoryReader } from "./services/memory-reader.ts";
import { MEMORY_READER } from "./tokens.ts";

/** Readers of the workspace: daily and long-term memory, documents, the organisation file. */
export const memoryPlugin = definePlugin<MemoryConfig>({
  id: "memory",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/memory", "/api/docs", "/api/org-structure"],
  config: memoryConfig,
  register(ctx) {
    ctx.provide(
      defineService({
        token: MEMORY_READER,
        deps: {},
        create: (_deps, c) => new MemoryReader({ workspace: c.workspace, config: c.config as MemoryConfig, logger: c.logger }),
      }),
    );
  },
  routes: mountMemoryRoutes,
});

export default memoryPlugin;
