import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import type { SearchConfig } from "../config.ts";
import { SEARCH } from "../tokens.ts";
import { SearchIndex, type SearchSeams } from "./search-index.ts";
import { SEARCH_DEPLOYMENT, singleProcess, TeamSearch } from "./team.ts";

/** Provides the workspace full-text index and the deployment's view of it; `seams` only in tests (see {@link SearchSeams}). */
export function registerSearchServices(ctx: PluginContext<SearchConfig>, seams?: SearchSeams): void {
  // The index tells the team view when its stats change; the team view is made after it, over it.
  let index: SearchIndex | undefined;
  let team: TeamSearch | undefined;
  ctx.provide(
    defineService({
      token: SEARCH,
      deps: { db: hostTokens.db, workspace: hostTokens.workspace, watch: hostTokens.workspaceWatch, logger: hostTokens.logger, config: configToken<SearchConfig>(), instances: hostTokens.instances },
      // Only the primary writes the saved index (always true on one process).
      create: ({ db, instances, watch, ...deps }) =>
        (index = new SearchIndex({ db: () => db, ...deps, watch: { watching: seams?.watching ?? (() => watch.watching()), scanned: seams?.scanned ?? (() => watch.scanned()) }, seams, persists: () => instances.primary(), onChange: () => team?.changed() })),
    }),
  );
  ctx.provide(
    defineService({
      token: SEARCH_DEPLOYMENT,
      // SEARCH among the deps so that the index exists first.
      deps: { search: SEARCH, db: hostTokens.db, instances: hostTokens.instances, logger: hostTokens.logger },
      create: ({ db, instances, logger }) => {
        if (!instances.shared) return singleProcess(index!);
        team = new TeamSearch({ index: index!, db: () => db, instances, logger });
        return team;
      },
    }),
  );
}
