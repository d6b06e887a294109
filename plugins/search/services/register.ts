import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import type { SearchConfig } from "../config.ts";
import { SEARCH } from "../tokens.ts";
import { SearchIndex, type SearchSeams } from "./search-index.ts";

/** Provides the workspace full-text index; `seams` only in tests (see {@link SearchSeams}). */
export function registerSearchServices(ctx: PluginContext<SearchConfig>, seams?: SearchSeams): void {
  ctx.provide(
    defineService({
      token: SEARCH,
      deps: { db: hostTokens.db, workspace: hostTokens.workspace, watch: hostTokens.workspaceWatch, logger: hostTokens.logger, config: configToken<SearchConfig>() },
      create: ({ db, ...deps }) => new SearchIndex({ db: () => db, ...deps, seams }),
    }),
  );
}
