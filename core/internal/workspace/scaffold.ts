// First run: a new workspace directory is filled from the workspace template
// (`./template/`). Existing files are never overwritten, and a directory that already holds
// anything is left alone entirely: it belongs to the user or to OpenClaw.
import { constants, copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace template shipped with Muster. */
export const TEMPLATE_DIR = fileURLToPath(new URL("./template/", import.meta.url));

/** Directories created even though the template holds no file in them. */
const EMPTY_DIRECTORIES = ["projects", "company/knowledge_base/feedback", "skills"];

/** Template files whose name or content depends on the day of scaffolding. */
const DAILY_NOTE = "memory/daily-note.md";

export interface ScaffoldResult {
  /** Whether the directory was new (missing or empty) and therefore scaffolded. */
  scaffolded: boolean;
  /** Workspace-relative paths of the files written. */
  created: string[];
}

/** Local calendar date `YYYY-MM-DD`: a daily note belongs to the user's day, not UTC's. */
export function localDate(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function isNewDirectory(root: string): boolean {
  try {
    return readdirSync(root).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

function listTemplate(dir: string, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...listTemplate(join(dir, entry.name), rel));
    else if (entry.isFile()) files.push(rel);
  }
  return files.sort();
}

/** Writes only when nothing exists at `target` (`wx`/COPYFILE_EXCL), so a race cannot clobber a file. */
function writeNew(target: string, write: () => void): boolean {
  mkdirSync(dirname(target), { recursive: true });
  try {
    write();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Scaffolds `root` from the workspace template when it is missing or empty; otherwise
 * does nothing. Returns what was written.
 */
export function scaffoldWorkspace(root: string, options: { now?: Date; templateDir?: string } = {}): ScaffoldResult {
  if (!isNewDirectory(root)) return { scaffolded: false, created: [] };
  const templateDir = options.templateDir ?? TEMPLATE_DIR;
  const today = localDate(options.now);
  mkdirSync(root, { recursive: true });
  const created: string[] = [];
  for (const rel of listTemplate(templateDir)) {
    const source = join(templateDir, rel);
    if (rel === DAILY_NOTE) {
      const target = `memory/${today}.md`;
      const content = readFileSync(source, "utf8").replaceAll("{{DATE}}", today);
      if (writeNew(join(root, target), () => writeFileSync(join(root, target), content, { flag: "wx" }))) created.push(target);
      continue;
    }
    if (writeNew(join(root, rel), () => copyFileSync(source, join(root, rel), constants.COPYFILE_EXCL))) created.push(rel);
  }
  for (const dir of EMPTY_DIRECTORIES) mkdirSync(join(root, dir), { recursive: true });
  return { scaffolded: true, created };
}
