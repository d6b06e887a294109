import { defineRoutes, z, hostTokens } from "@muster/plugin";
import { SKILL_IMPORTER, SKILL_STORE } from "../tokens.ts";
import { importSkillBody, listSkillsResponse, skillSchema } from "./schemas.ts";

/** The workspace's skills: list and import. */
export const skillRoutes = defineRoutes({
  deps: { store: SKILL_STORE, importer: SKILL_IMPORTER, events: hostTokens.events },
  mount: (router, { store, importer, events }) => {
    router.get(
      "/api/skills/import",
      { summary: "Skill categories of the workspace (skills/<category>/<name>.md) and their skill names", response: listSkillsResponse },
      async () => ({ ok: true, categories: await store.list() }),
    );

    router.post(
      "/api/skills/import",
      {
        summary: "Import a skill from raw content or an http(s) URL",
        description:
          "The URL is fetched with a deadline and a size cap; it is refused (403 SKILLS_URL_BLOCKED) when its host resolves to a loopback, private, link-local, unique-local, CGNAT or unspecified address, also after redirects.",
        body: importSkillBody,
        status: 201,
        response: z.object({ ok: z.literal(true), skill: skillSchema }),
      },
      async ({ body }) => {
        const skill = await importer.import(body);
        events.publish("skills.skill.imported", skill, { public: true });
        return { ok: true, skill };
      },
    );
  },
});
