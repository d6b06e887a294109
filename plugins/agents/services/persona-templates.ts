import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { WorkspacePaths } from "@muster/plugin";

/** The tiers persona templates are filed under (reference §6.2) and the tier number each gives an agent. */
export const PERSONA_TIERS = { executive: 1, management: 2, execution: 3 } as const;
export type PersonaTier = keyof typeof PERSONA_TIERS;

/** The spec's Persona template. */
export interface PersonaTemplate {
  id: string;
  name: string;
  tier: PersonaTier;
  /** Relative to `personas/`: `<tier>/<file>.md`. */
  path: string;
}

const titleCase = (id: string) => id.replace(/[-_]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());

/** `personas/<tier>/*.md`, sorted by tier then id; a missing directory lists nothing. */
export async function listPersonaTemplates(workspace: WorkspacePaths): Promise<PersonaTemplate[]> {
  const templates: PersonaTemplate[] = [];
  for (const tier of Object.keys(PERSONA_TIERS) as PersonaTier[]) {
    let dir: string;
    try {
      dir = workspace.resolve(`personas/${tier}`);
    } catch {
      continue;
    }
    const files = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const f of files.filter((f) => f.isFile() && f.name.endsWith(".md")).sort((a, b) => a.name.localeCompare(b.name))) {
      const id = f.name.slice(0, -3);
      templates.push({ id, name: titleCase(id), tier, path: `${tier}/${f.name}` });
    }
  }
  return templates;
}

/** A template by id, or by `<tier>/<id>` when two tiers share an id. */
export async function findPersonaTemplate(workspace: WorkspacePaths, templateId: string): Promise<PersonaTemplate | undefined> {
  const templates = await listPersonaTemplates(workspace);
  return templates.find((t) => `${t.tier}/${t.id}` === templateId) ?? templates.find((t) => t.id === templateId);
}

/** The absolute path of a template's file (inside the workspace). */
export const templateFile = (workspace: WorkspacePaths, template: PersonaTemplate) => workspace.resolve(join("personas", template.path));
