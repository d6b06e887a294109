import { token } from "@muster/plugin";
import type { SkillImporter } from "./services/skill-importer.ts";
import type { SkillStore } from "./services/skill-store.ts";

/** The skill files of the workspace. Depend on the `skills` plugin to use it. */
export const SKILL_STORE = token<SkillStore>("skills.store");
/** Skill import from content or a URL (SSRF-guarded). */
export const SKILL_IMPORTER = token<SkillImporter>("skills.importer");
