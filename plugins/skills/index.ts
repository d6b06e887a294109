import { definePlugin, defineService } from "@muster/plugin";
import { skillsConfig, type SkillsConfig } from "./config.ts";
import { mountSkillRoutes } from "./http/routes.ts";
import { SkillImporter } from "./services/skill-importer.ts";
import { SkillStore } from "./services/skill-store.ts";
import { SKILL_IMPORTER, SKILL_STORE } from "./tokens.ts";

/** Skills of the workspace: list and import (`/api/skills/import`). */
export const skillsPlugin = definePlugin<SkillsConfig>({
  id: "skills",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/skills"],
  config: skillsConfig,
  register(ctx) {
    ctx.provide(defineService({ token: SKILL_STORE, deps: {}, create: (_d, c) => new SkillStore({ workspace: c.workspace, logger: c.logger }) }));
    ctx.provide(
      defineService({
        token: SKILL_IMPORTER,
        deps: { store: SKILL_STORE },
        create: ({ store }, c) => new SkillImporter({ store, config: c.config as SkillsConfig }),
      }),
    );
  },
  routes: mountSkillRoutes,
});

export default skillsPlugin;
