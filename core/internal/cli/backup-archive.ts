// The backup format shared by `muster backup` and `muster restore`: a directory holding
// `muster-backup.json` (the manifest), the database (`muster.db`, an online SQLite backup, or
// on PostgreSQL `muster.pgdump`, pg_dump's custom format) and `home/` (every other file of
// MUSTER_HOME), packed as a gzipped tar when the system has `tar`,
// else left as that directory. Nothing is added as a dependency for it.
import { spawnSync } from "node:child_process";
import { lstatSync, readdirSync, readlinkSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

export const MANIFEST = "muster-backup.json";
export const DATABASE = "muster.db";
export const POSTGRES_DUMP = "muster.pgdump";
export const HOME_DIR = "home";
export const FORMAT = { name: "muster-backup", version: 1 } as const;

export type DatabaseEngine = "sqlite" | "postgresql";

/** The database file of a backup of each engine. */
export const DATABASE_FILE: Record<DatabaseEngine, string> = { sqlite: DATABASE, postgresql: POSTGRES_DUMP };

export interface BackupManifest {
  format: typeof FORMAT.name;
  version: number;
  /** Which database the backup holds; absent in backups made before PostgreSQL (SQLite). */
  engine?: DatabaseEngine;
  createdAt: string;
  musterVersion: string;
  /** MUSTER_HOME it was taken from, for the human reading it. */
  home: string;
  /** Files under home/, repository-style relative paths. */
  files: number;
}

/**
 * What a backup leaves out of MUSTER_HOME: the live database files (the backup carries a
 * consistent copy instead), the instance lock (it names a process of this machine) and the
 * session token (a credential of one server process, new at every start).
 */
export function excludedFromBackup(name: string): boolean {
  return /^muster\.db(-wal|-shm|-journal)?$/.test(name) || name === "session-token" || name === "muster.lock" || name.startsWith("muster.lock.");
}

/** Whether the `tar` command is there (GNU tar on Debian, bsdtar on macOS). */
export function hasTar(): boolean {
  return spawnSync("tar", ["--version"], { stdio: "ignore" }).status === 0;
}

export function packTar(dir: string, file: string): void {
  const run = spawnSync("tar", ["-czf", file, "-C", dir, "."], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`tar failed: ${(run.stderr || run.error?.message || "").trim()}`);
}

/** The member names of a tar archive, or an error text when it is not one. */
export function listTar(file: string): string[] | { problem: string } {
  const run = spawnSync("tar", ["-tzf", file], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) return { problem: "not a gzipped tar archive" };
  return run.stdout.split("\n").filter(Boolean);
}

/** A member name that would land outside the extraction directory (absolute, or with a `..` segment). */
export function escapingMember(names: string[]): string | undefined {
  return names.find((name) => isAbsolute(name) || name.split(/[\\/]/).includes(".."));
}

export function unpackTar(file: string, dir: string): void {
  const run = spawnSync("tar", ["-xzf", file, "-C", dir, "--no-same-owner"], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`tar could not extract it: ${(run.stderr || "").trim()}`);
}

/** Whether `path` is a symbolic link whose target lies outside `root`. */
export function linksOutside(path: string, root: string): boolean {
  if (!lstatSync(path).isSymbolicLink()) return false;
  const top = resolve(root);
  const target = resolve(dirname(path), readlinkSync(path));
  return target !== top && !target.startsWith(`${top}${sep}`);
}

/** The first symbolic link under `root` that points outside it (a restored home must not reach elsewhere). */
export function linkLeavingRoot(root: string): string | undefined {
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isSymbolicLink() && linksOutside(path, root)) return relative(root, path);
  }
  return undefined;
}

/** Number of files (not directories) under `dir`. */
export function countFiles(dir: string): number {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) if (!entry.isDirectory()) n++;
  return n;
}
