import { fileURLToPath } from "node:url";
import { contribute, definePlugin, hostPoints } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { searchConfigSchema, type SearchConfig } from "./config.ts";
import { SearchFile } from "./entities/search-file.ts";
import { SearchState } from "./entities/search-state.ts";
import { migrations } from "./migrations.ts";
import { searchMetrics } from "./metrics.ts";
import { searchRoutes } from "./http/routes.ts";
import { registerSearchServices } from "./services/register.ts";
import { startSearch, stopSearch } from "./services/lifecycle.ts";

/**
 * Full-text search over the workspace (`GET`/`POST /api/search`): a minisearch index
 * persisted with the file index, loaded in the background at start and kept current by
 * the watcher's `workspace.file.changed` events.
 */
export const searchPlugin = definePlugin<SearchConfig>({
  id: "search",
  version: "1.0.0",
  host: "^1.0.0",
  // Its index size on GET /metrics when the metrics plugin is loaded.
  optionalDependsOn: ["metrics", "dashboard"],
  paths: ["/api/search"],
  config: searchConfigSchema,
  entities: [SearchFile, SearchState],
  migrations,
  contributions: [
    contribute(CONSOLE_PAGES, {
      id: "search",
      title: "Search",
      group: "knowledge",
      order: 10,
      module: fileURLToPath(new URL("./console/search-page.ts", import.meta.url)),
      events: [],
    }),
    searchMetrics,
    // MCP tools (docs/mcp.md).
    contribute(hostPoints.mcpTools, { name: "search", title: "Search the workspace", scope: "read", method: "GET", path: "/api/search" }),
  ],
  register: registerSearchServices,
  routes: searchRoutes,
  onStart: startSearch,
  onStop: stopSearch,
});

export default searchPlugin;
