import type { StoredSkill } from "./services/skill-store.ts";

/** Events the skills plugin publishes (public: forwarded to SSE clients). */
export interface SkillEvents {
  "skills.skill.imported": StoredSkill;
}

declare module "@muster/plugin" {
  interface MusterEvents extends SkillEvents {}
}
