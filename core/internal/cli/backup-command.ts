// `muster backup [<file>]`: an online backup of MUSTER_HOME, safe while the server runs.
// The database is copied with SQLite's backup API on a separate read connection: in WAL
// mode a reader never blocks the server's writes, and the whole copy is one backup step
// (one read snapshot), so rows written meanwhile are either all in it or all out of it.
// With DATABASE_URL (PostgreSQL) it is pg_dump's custom format instead, one snapshot too.
// The other files of the home are copied beside it; the result is written under a
// temporary name and renamed into place, so a failed backup leaves no half-written file.
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import type { MusterConfig } from "../config.ts";
import { packageVersion } from "../package-version.ts";
import { DATABASE, DATABASE_FILE, excludedFromBackup, FORMAT, HOME_DIR, hasTar, linksOutside, MANIFEST, packTar, countFiles, type BackupManifest } from "./backup-archive.ts";
import { cliErrors } from "./cli-errors.ts";
import { dumpPostgres, requirePostgresTool } from "./postgres-backup.ts";
import { EXIT, parseCommandArgs, defineCliCommand, UsageError, type CliCommand, type CommandStreams } from "./command.ts";

const HELP = `Usage: muster backup [<file>] [--format tar|dir]

Writes an online backup of MUSTER_HOME (the server may keep running): a consistent copy of
the database (SQLite's backup API; with DATABASE_URL, PostgreSQL's pg_dump, from
POSTGRES_BIN_DIR, else PATH, else /usr/lib/postgresql/<version>/bin) and every other file
of the home (muster.config.json, installed plugins, search indexes, a workspace kept inside
the home), never the instance lock or the session token. Secrets stay encrypted: keep VAULT_KEY separately.

  <file>           where to write it (default ./muster-backup-<timestamp>.tar.gz); never overwritten
  --format tar     a gzipped tar (the default when the tar command is available)
  --format dir     a directory with the same contents (the default without tar)

Restore it with \`muster restore <file>\` (server stopped). Exit codes: 0 written; 1 failed
(nothing written); 2 usage error.`;

export function backupCommand(config: () => MusterConfig): CliCommand {
  return defineCliCommand({
    name: "backup",
    usage: [{ form: "backup [<file>]", summary: "online backup of MUSTER_HOME (database + files) into one archive" }],
    help: HELP,
    body: (args, io) => runBackup(args, io, config()),
  });
}

async function runBackup(args: string[], io: CommandStreams, config: MusterConfig): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { format: { type: "string" } }, { min: 0, max: 1 });
  const format = values.format ?? (hasTar() ? "tar" : "dir");
  if (format !== "tar" && format !== "dir") throw new UsageError(`--format must be tar or dir (got "${format}")`);
  if (format === "tar" && !hasTar()) throw new UsageError("--format tar needs the tar command, which is not installed; use --format dir");
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const target = resolve(positionals[0] ?? `muster-backup-${stamp}${format === "tar" ? ".tar.gz" : ""}`);
  const written = await writeBackup({ home: config.home, target, format, databaseUrl: config.databaseUrl, postgresBinDir: config.postgresBinDir });
  io.stdout.write(`${target}\n`);
  io.stderr.write(`Backed up MUSTER_HOME ${config.home} (${written.engine === "postgresql" ? "PostgreSQL database" : "database"} + ${written.files} file(s)). Restore with: muster restore ${target}\n`);
  return EXIT.ok;
}

export interface BackupOptions {
  home: string;
  target: string;
  format: "tar" | "dir";
  /** `DATABASE_URL`: the PostgreSQL database to dump instead of the home's SQLite file. */
  databaseUrl?: string | null;
  postgresBinDir?: string | null;
}

/** Writes the backup to `target` (which must not exist); returns its manifest. */
export async function writeBackup({ home, target, format, databaseUrl = null, postgresBinDir = null }: BackupOptions): Promise<BackupManifest> {
  const engine = databaseUrl ? "postgresql" : "sqlite";
  const dbPath = join(home, DATABASE);
  if (engine === "sqlite" && !existsSync(dbPath)) throw cliErrors.BACKUP_NO_DATABASE({ path: dbPath });
  const pgDump = databaseUrl ? requirePostgresTool("pg_dump", postgresBinDir) : null;
  if (existsSync(target)) throw cliErrors.BACKUP_TARGET_EXISTS({ path: target });
  if (!existsSync(dirname(target))) throw cliErrors.BACKUP_FAILED({ path: target, reason: `the directory ${dirname(target)} does not exist` });
  // Beside the target: the final rename stays on one file system.
  const work = mkdtempSync(join(dirname(target), `.${basename(target)}.partial-`));
  try {
    const staging = join(work, "backup");
    mkdirSync(join(staging, HOME_DIR), { recursive: true, mode: 0o700 });
    if (pgDump) {
      await dumpPostgres(pgDump, databaseUrl!, join(staging, DATABASE_FILE.postgresql));
      chmodSync(join(staging, DATABASE_FILE.postgresql), 0o600);
    } else {
      await copyDatabase(dbPath, join(staging, DATABASE));
    }
    // On PostgreSQL the home may hold nothing yet (the database is elsewhere).
    if (existsSync(home)) {
      cpSync(home, join(staging, HOME_DIR), {
        recursive: true,
        verbatimSymlinks: true,
        // Not the live database files, lock or token; nor this backup itself when it is written
        // inside the home; nor links out of the home (the server re-links node_modules/@muster/plugin
        // to its own plugin kit when it loads a plugin; elsewhere such a link would point nowhere).
        filter: (source) => source !== work && (dirname(source) !== home || !excludedFromBackup(basename(source))) && !linksOutside(source, home),
      });
    }
    const manifest: BackupManifest = { format: FORMAT.name, version: FORMAT.version, engine, createdAt: new Date().toISOString(), musterVersion: packageVersion, home, files: countFiles(join(staging, HOME_DIR)) };
    writeFileSync(join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    // Only the owner may read it, as MUSTER_HOME itself (0700): it holds the whole database.
    if (format === "tar") {
      const file = join(work, "backup.tar.gz");
      packTar(staging, file);
      chmodSync(file, 0o600);
      renameSync(file, target);
    } else {
      chmodSync(staging, 0o700);
      renameSync(staging, target);
    }
    return manifest;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith("BACKUP_")) throw error;
    throw cliErrors.BACKUP_FAILED({ path: target, reason: (error as Error).message }, { cause: error });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** SQLite's online backup from a read-only connection, in one step (one snapshot). */
async function copyDatabase(source: string, destination: string): Promise<void> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    // The first step copies nothing (better-sqlite3 starts at 0 pages); the next copies every page at once.
    await db.backup(destination, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}
