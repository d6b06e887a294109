/**
 * Search categories, derived from the workspace-relative path (first rule that matches).
 * Unlike the earlier implementation, rules look at path segments, so top-level folders
 * (`memory/2026-01-01.md`) match too.
 *
 * | category    | paths                                                        |
 * |-------------|--------------------------------------------------------------|
 * | `memory`    | `MEMORY.md`, `memory/**`                                     |
 * | `knowledge` | `company/knowledge_base/**`                                  |
 * | `org`       | `company/**` (the organisation file and the rest of company) |
 * | `projects`  | `projects/**`, `boards/**`                                   |
 * | `personas`  | `personas/**`                                                |
 * | `skills`    | `skills/**`, any `skills/` folder deeper down                |
 * | `squads`    | `squads/**`, `packs/**`                                      |
 * | `drafts`    | `drafts/**`                                                  |
 * | `docs`      | `docs/**`, `methodology/**`                                  |
 * | `core`      | other files at the top level (`SOUL.md`, `AGENTS.md`, ...)   |
 * | `other`     | everything else                                              |
 */
export const CATEGORIES = ["memory", "knowledge", "org", "projects", "personas", "skills", "squads", "drafts", "docs", "core", "other"] as const;

export type Category = (typeof CATEGORIES)[number];

/** The category of a workspace-relative path with `/` separators. */
export function categoryOf(path: string): Category {
  const segments = path.split("/");
  const [first] = segments;
  if (segments.length === 1) return first === "MEMORY.md" ? "memory" : "core";
  if (first === "memory") return "memory";
  if (first === "company") return segments[1] === "knowledge_base" ? "knowledge" : "org";
  if (first === "projects" || first === "boards") return "projects";
  if (first === "personas") return "personas";
  if (first === "skills" || segments.slice(1, -1).includes("skills")) return "skills";
  if (first === "squads" || first === "packs") return "squads";
  if (first === "drafts") return "drafts";
  if (first === "docs" || first === "methodology") return "docs";
  return "other";
}
