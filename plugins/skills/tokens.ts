import { token } from "@muster/plugin";
import type { SkillImport } from "./services/skill-importer.ts";
import type { SkillCategory, StoredSkill } from "./services/skill-store.ts";

export type { SkillCategory, SkillImport, StoredSkill };

/** The skill files of the workspace (`skills/<category>/<name>.md`). */
export interface SkillFiles {
  /** Category directories and their skill names, empty categories left out. */
  list(): Promise<SkillCategory[]>;
  /** Writes a skill file atomically; refuses an existing one unless `overwrite`. */
  write(input: { slug: string; category: string; markdown: string; overwrite: boolean }): Promise<StoredSkill>;
}

/** Skill import from raw content or an http(s) URL (SSRF-guarded). */
export interface SkillImports {
  import(input: SkillImport): Promise<StoredSkill>;
}

/** The skill files of the workspace. Depend on the `skills` plugin to use it. */
export const SKILL_STORE = token<SkillFiles>("skills.store");
/** Skill import from content or a URL (SSRF-guarded). */
export const SKILL_IMPORTER = token<SkillImports>("skills.importer");
