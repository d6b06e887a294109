import { WORKSPACE_FILE_CHANGED, definePlugin, defineService, type WorkspaceFileChange } from "@muster/plugin";
import { searchConfigSchema, type SearchConfig } from "./config.ts";
import { migrations } from "./migrations.ts";
import { mountSearchRoutes } from "./http/routes.ts";
import { SearchIndex } from "./services/search-index.ts";
import { SEARCH } from "./tokens.ts";

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
  migrations,
  register(ctx) {
    ctx.provide(
      defineService({
        token: SEARCH,
        deps: {},
        create: (_deps, c) => new SearchIndex({ db: () => c.db, workspace: c.workspace, logger: c.logger, config: ctx.config }),
      }),
    );
  },
  routes: mountSearchRoutes,
  onStart(ctx) {
    const index = ctx.resolve(SEARCH);
    const unsubscribe = ctx.events.subscribe(WORKSPACE_FILE_CHANGED, (event) => index.fileChanged(event.payload as WorkspaceFileChange));
    ctx.lifecycle.onStop(unsubscribe);
    // Not awaited: the server starts listening at once; searches wait (bounded) for the load.
    index.start();
  },
  onStop: (ctx) => ctx.resolve(SEARCH).stop(),
});

export default searchPlugin;
