import { definePlugin } from "@muster/plugin";
import { skillsConfig, type SkillsConfig } from "./config.ts";
import { skillRoutes } from "./http/routes.ts";
import { registerSkillServices } from "./services/register.ts";

/** Skills of the workspace: list and import (`/api/skills/import`). */
export const skillsPlugin = definePlugin<SkillsConfig>({
  id: "skills",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/skills"],
  config: skillsConfig,
  register: registerSkillServices,
  routes: skillRoutes,
});

export default skillsPlugin;
