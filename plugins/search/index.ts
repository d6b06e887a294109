import { contribute, definePlugin, hostPoints } from "@muster/plugin";
import { searchConfigSchema, type SearchConfig } from "./config.ts";
import { SearchFile } from "./entities/search-file.ts";
import { SearchState } from "./entities/search-state.ts";
import { migrations } from "./migrations.ts";
import { mountSearchRoutes } from "./http/routes.ts";
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
  paths: ["/api/search"],
  config: searchConfigSchema,
  entities: [SearchFile, SearchState],
  migrations,
  register: registerSearchServices,
  routes: mountSearchRoutes,
  onStart: startSearch,
  onStop: stopSearch,
  // MCP tools (docs/mcp.md).
  contributions: [
    contribute(hostPoints.mcpTools, { name: "search", title: "Search the workspace", scope: "read", method: "GET", path: "/api/search" }),
  ],
});

export default searchPlugin;
