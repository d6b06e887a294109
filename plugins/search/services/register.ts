import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import type { SearchConfig } from "../config.ts";
import { SEARCH } from "../tokens.ts";
import { SearchIndex } from "./search-index.ts";

/** Provides the workspace full-text index. */
export function registerSearchServices(ctx: PluginContext<SearchConfig>): void {
  ctx.provide(
    defineService({
      token: SEARCH,
      deps: { db: hostTokens.db, workspace: hostTokens.workspace, logger: hostTokens.logger, config: configToken<SearchConfig>() },
      create: ({ db, ...deps }) => new SearchIndex({ db: () => db, ...deps }),
    }),
  );
}
