import { contribute, definePlugin } from "@muster/plugin";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { skillsConfig, type SkillsConfig } from "./config.ts";
import { skillRoutes } from "./http/routes.ts";
import { registerSkillServices } from "./services/register.ts";

/** Skills of the workspace: list and import (`/api/skills/import`). */
export const skillsPlugin = definePlugin<SkillsConfig>({
  id: "skills",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["stream"],
  paths: ["/api/skills"],
  config: skillsConfig,
  contributions: [contribute(STREAM_EVENT_FAMILIES, { pattern: "skills.skill.imported", description: "A skill was imported into the workspace" })],
  register: registerSkillServices,
  routes: skillRoutes,
});

export default skillsPlugin;
