// Skill files `skills/<category>/<slug>.md`. A new skill is written to a temporary file
// and hard-linked into place (fails atomically if the name was taken meanwhile); an
// overwrite is a rename. Readers never see a half-written skill.
import { randomBytes } from "node:crypto";
import { link, mkdir, readdir, rename, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { MusterError, type Logger, type WorkspacePaths } from "@muster/plugin";
import { skillsErrors } from "../errors.ts";
import type { SkillFiles } from "../tokens.ts";

export const SKILLS_DIR = "skills";
/** Category directory names. */
export const CATEGORY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const SKILL_FILE = /^([a-z0-9][a-z0-9_-]{0,99})\.md$/;

/** The reference's slug: lower-cased, runs of other characters replaced by `-`. */
export const slugify = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");

export interface SkillCategory {
  category: string;
  skills: string[];
}

export interface StoredSkill {
  name: string;
  category: string;
  path: string;
  size: number;
}

export class SkillStore implements SkillFiles {
  private readonly deps: { workspace: WorkspacePaths; logger: Logger };
  constructor(deps: { workspace: WorkspacePaths; logger: Logger }) {
    this.deps = deps;
  }

  /** Category directories and their skill names (file names without `.md`), empty categories left out. */
  async list(): Promise<SkillCategory[]> {
    let root: string;
    try {
      root = this.deps.workspace.resolve(SKILLS_DIR);
    } catch (error) {
      if (!(error instanceof MusterError)) throw error;
      this.deps.logger.warn({ dir: SKILLS_DIR, code: error.code }, "skills directory refused");
      return [];
    }
    let categories;
    try {
      categories = await readdir(root, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return [];
      throw error;
    }
    const result: SkillCategory[] = [];
    for (const entry of categories) {
      // Real directories only: a symlinked category could point anywhere.
      if (!entry.isDirectory() || !CATEGORY_PATTERN.test(entry.name)) continue;
      let files;
      try {
        files = await readdir(join(root, entry.name), { withFileTypes: true });
      } catch {
        continue;
      }
      const skills = files
        .filter((f) => f.isFile())
        .map((f) => SKILL_FILE.exec(f.name)?.[1])
        .filter((s): s is string => s !== undefined)
        .sort();
      if (skills.length > 0) result.push({ category: entry.name, skills });
    }
    return result.sort((a, b) => (a.category < b.category ? -1 : 1));
  }

  /** Writes the skill; 409 `SKILLS_SKILL_EXISTS` unless `overwrite`. */
  async write(input: { slug: string; category: string; markdown: string; overwrite: boolean }): Promise<StoredSkill> {
    const rel = `${SKILLS_DIR}/${input.category}/${input.slug}.md`;
    const target = this.deps.workspace.resolve(rel);
    await mkdir(dirname(target), { recursive: true });
    this.deps.workspace.resolve(rel); // the directories now exist: re-check for symlinks
    const existing = await stat(target).catch(() => null);
    if (existing && !existing.isFile()) throw skillsErrors.SKILLS_SKILL_EXISTS({ path: rel });
    if (existing && !input.overwrite) throw skillsErrors.SKILLS_SKILL_EXISTS({ path: rel });
    const temp = join(dirname(target), `.${input.slug}.${randomBytes(6).toString("hex")}.tmp`);
    await writeFile(temp, input.markdown, { flag: "wx", mode: 0o644 });
    try {
      if (input.overwrite) await rename(temp, target);
      else {
        try {
          await link(temp, target);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "EEXIST") throw skillsErrors.SKILLS_SKILL_EXISTS({ path: rel });
          throw error;
        }
      }
    } finally {
      await unlink(temp).catch(() => undefined);
    }
    return { name: input.slug, category: input.category, path: rel, size: Buffer.byteLength(input.markdown) };
  }
}
