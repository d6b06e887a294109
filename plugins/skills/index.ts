import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { skillsConfig, type SkillsConfig } from "./config.ts";
import { skillRoutes } from "./http/routes.ts";
import { registerSkillServices } from "./services/register.ts";

/** Skills of the workspace: list and import (`/api/skills/import`). */
export const skillsPlugin = definePlugin<SkillsConfig>({
  id: "skills",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["stream", "dashboard"],
  paths: ["/api/skills"],
  config: skillsConfig,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "skills.skill.imported", description: "A skill was imported into the workspace" }),
    contribute(CONSOLE_PAGES, {
      id: "skills",
      title: "Skills",
      group: "knowledge",
      order: 40,
      module: fileURLToPath(new URL("./console/skills-page.ts", import.meta.url)),
      events: ["skills.skill.imported"],
    }),
  ],
  register: registerSkillServices,
  routes: skillRoutes,
});

export default skillsPlugin;
