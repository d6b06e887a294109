import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import type { SkillsConfig } from "../config.ts";
import { SKILL_IMPORTER, SKILL_STORE } from "../tokens.ts";
import { SkillImporter } from "./skill-importer.ts";
import { SkillStore } from "./skill-store.ts";

/** Provides the skill files and the importer that writes through them. */
export function registerSkillServices(ctx: PluginContext<SkillsConfig>): void {
  ctx.provide(
    defineService({
      token: SKILL_STORE,
      deps: { workspace: hostTokens.workspace, logger: hostTokens.logger },
      create: (deps) => new SkillStore(deps),
    }),
  );
  ctx.provide(
    defineService({
      token: SKILL_IMPORTER,
      deps: { store: SKILL_STORE, config: configToken<SkillsConfig>() },
      create: (deps) => new SkillImporter(deps),
    }),
  );
}
