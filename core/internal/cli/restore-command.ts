// `muster restore <file>`: replaces MUSTER_HOME with a backup made by `muster backup`. It
// refuses while a server holds the home (and holds the instance lock itself meanwhile, so
// none can start), unpacks into a temporary directory beside the home, checks everything
// there (manifest, no member or link escaping it, the database's integrity), and only
// then swaps the directories with two renames. The previous home is kept beside it.
// With DATABASE_URL (PostgreSQL) the backup must hold a pg_dump, which pg_restore loads in
// one transaction, under the lock and before the swap: a failure leaves both as they were.
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import type { MusterConfig } from "../config.ts";
import { acquireInstanceLock, runningInstance, type InstanceLock } from "../instance-lock.ts";
import { packageVersion } from "../package-version.ts";
import { isStartError } from "../start-errors.ts";
import { DATABASE, DATABASE_FILE, escapingMember, FORMAT, HOME_DIR, hasTar, linkLeavingRoot, listTar, MANIFEST, unpackTar, type BackupManifest, type DatabaseEngine } from "./backup-archive.ts";
import { cliErrors } from "./cli-errors.ts";
import { requirePostgresTool, restorePostgres, unreadableDump } from "./postgres-backup.ts";
import { EXIT, parseCommandArgs, defineCliCommand, type CliCommand, type CommandStreams } from "./command.ts";

const HELP = `Usage: muster restore <file>

Replaces MUSTER_HOME with a backup written by \`muster backup\` (a .tar.gz file, or the
directory form). The server must be stopped: with one running on MUSTER_HOME it exits 1 and
changes nothing. The backup is unpacked and checked (format, paths, database integrity)
before anything is replaced; the previous home is kept as <home>.before-restore-<timestamp>.
Start the server afterwards with the VAULT_KEY the backup's secrets were stored under.

With DATABASE_URL (PostgreSQL) the backup must be one taken on PostgreSQL; pg_restore
(from POSTGRES_BIN_DIR, else PATH, else /usr/lib/postgresql/<version>/bin) replaces the
backup's tables in the database in one transaction: a failure leaves the database as it
was. Stop every Muster instance that uses the database first, not only this home's.

Exit codes: 0 restored; 1 refused or failed (MUSTER_HOME unchanged); 2 usage error.`;

export function restoreCommand(config: () => MusterConfig): CliCommand {
  return defineCliCommand({
    name: "restore",
    usage: [{ form: "restore <file>", summary: "replace MUSTER_HOME with a backup (server stopped)" }],
    help: HELP,
    body: (args, io) => runRestore(args, io, config()),
  });
}

async function runRestore(args: string[], io: CommandStreams, config: MusterConfig): Promise<number> {
  const { positionals } = parseCommandArgs(args, {}, { min: 1, max: 1 });
  const { previous, manifest } = await restoreBackup({ home: config.home, source: resolve(positionals[0]!), databaseUrl: config.databaseUrl, postgresBinDir: config.postgresBinDir });
  io.stdout.write(`Restored MUSTER_HOME ${config.home} from the backup of ${manifest.createdAt} (Muster ${manifest.musterVersion}).\n`);
  if (previous) io.stdout.write(`The previous home is kept at ${previous}; remove it when you no longer need it.\n`);
  return EXIT.ok;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the replaced home was moved, or null when there was none. */
  previous: string | null;
}

export interface RestoreOptions {
  home: string;
  source: string;
  /** `DATABASE_URL`: the PostgreSQL database to load the backup's dump into. */
  databaseUrl?: string | null;
  postgresBinDir?: string | null;
}

export async function restoreBackup({ home, source, databaseUrl = null, postgresBinDir = null }: RestoreOptions): Promise<RestoreResult> {
  const holder = runningInstance(home);
  if (holder) throw cliErrors.RESTORE_SERVER_RUNNING({ home, holder: `pid ${holder.pid}${holder.url ? ` at ${holder.url}` : ""}` });
  if (!existsSync(source)) throw cliErrors.RESTORE_ARCHIVE_INVALID({ path: source, reason: "it does not exist" });
  const pgRestore = databaseUrl ? requirePostgresTool("pg_restore", postgresBinDir) : null;
  const existed = existsSync(home);
  const lock = takeLock(home);
  const work = mkdtempSync(join(dirname(home), `.${basename(home)}.restore-`));
  try {
    const unpacked = unpack(source, work);
    const manifest = checkBackup(source, unpacked, databaseUrl ? "postgresql" : "sqlite");
    const fresh = join(unpacked, HOME_DIR);
    if (pgRestore) {
      const dump = join(unpacked, DATABASE_FILE.postgresql);
      const unreadable = await unreadableDump(pgRestore, dump);
      if (unreadable) throw cliErrors.RESTORE_ARCHIVE_INVALID({ path: source, reason: `pg_restore cannot read its database dump (${unreadable})` });
      await restorePostgres(pgRestore, databaseUrl!, dump, home);
    } else {
      renameSync(join(unpacked, DATABASE), join(fresh, DATABASE));
    }
    chmodSync(fresh, 0o700);
    const previous = swap(home, fresh, pgRestore ? "; the database had already been restored from the backup" : "");
    if (previous) rmSync(join(previous, "muster.lock"), { force: true }); // ours; the moved-aside home has no server
    // Taking the lock created the home; what was moved aside then is only that.
    if (previous && !existed) rmSync(previous, { recursive: true, force: true });
    return { manifest, previous: existed ? previous : null };
  } finally {
    lock.release();
    rmSync(work, { recursive: true, force: true });
  }
}

function takeLock(home: string): InstanceLock {
  try {
    return acquireInstanceLock(home, packageVersion);
  } catch (error) {
    // A server started between the check and the lock.
    if (isStartError(error)) throw cliErrors.RESTORE_SERVER_RUNNING({ home, holder: error.message });
    throw error;
  }
}

/** The backup's contents under `work`, from the tar file or the directory form. */
function unpack(source: string, work: string): string {
  const invalid = (reason: string) => cliErrors.RESTORE_ARCHIVE_INVALID({ path: source, reason });
  const into = join(work, "backup");
  if (statSync(source).isDirectory()) {
    cpSync(source, into, { recursive: true, verbatimSymlinks: true });
    return into;
  }
  if (!hasTar()) throw invalid("it is a file and the tar command is not installed to unpack it");
  const names = listTar(source);
  if (!Array.isArray(names)) throw invalid(names.problem);
  const escaping = escapingMember(names);
  if (escaping !== undefined) throw invalid(`its member ${JSON.stringify(escaping)} would be written outside the restored home`);
  mkdirSync(into);
  try {
    unpackTar(source, into);
  } catch (error) {
    throw invalid((error as Error).message);
  }
  return into;
}

function checkBackup(source: string, dir: string, deployment: DatabaseEngine): BackupManifest {
  const invalid = (reason: string) => cliErrors.RESTORE_ARCHIVE_INVALID({ path: source, reason });
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Partial<BackupManifest>;
  } catch {
    throw invalid(`it has no readable ${MANIFEST}`);
  }
  if (manifest?.format !== FORMAT.name) throw invalid(`${MANIFEST} does not describe a Muster backup`);
  if (manifest.version !== FORMAT.version) throw invalid(`it is backup format version ${String(manifest.version)}; this Muster reads version ${FORMAT.version}`);
  // Backups made before PostgreSQL say no engine: they are SQLite's.
  const engine = manifest.engine ?? "sqlite";
  if (!Object.hasOwn(DATABASE_FILE, engine)) throw invalid(`${MANIFEST} names an unknown database engine ${JSON.stringify(engine)}`);
  if (engine !== deployment) throw cliErrors.RESTORE_ENGINE_MISMATCH({ path: source, backup: ENGINE_NAME[engine], deployment: deployment === "postgresql" ? "PostgreSQL (DATABASE_URL)" : "SQLite (no DATABASE_URL)" });
  if (!existsSync(join(dir, HOME_DIR)) || !statSync(join(dir, HOME_DIR)).isDirectory()) throw invalid(`it has no ${HOME_DIR}/ directory`);
  if (existsSync(join(dir, HOME_DIR, DATABASE))) throw invalid(`${HOME_DIR}/ holds a live database file; the backup's database must be the top-level ${DATABASE}`);
  const link = linkLeavingRoot(dir);
  if (link !== undefined) throw invalid(`its symbolic link ${link} points outside the backup`);
  if (engine === "postgresql") {
    // Its readability is pg_restore's to judge (restoreBackup); here only that it is there.
    if (!existsSync(join(dir, DATABASE_FILE.postgresql))) throw invalid(`its database dump ${DATABASE_FILE.postgresql} is missing`);
  } else {
    const integrity = databaseIntegrity(join(dir, DATABASE));
    if (integrity !== "ok") throw invalid(`its database ${integrity}`);
  }
  return manifest as BackupManifest;
}

const ENGINE_NAME: Record<DatabaseEngine, string> = { sqlite: "SQLite", postgresql: "PostgreSQL" };

function databaseIntegrity(path: string): string {
  if (!existsSync(path)) return "is missing";
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { fileMustExist: true });
    const rows = db.pragma("integrity_check") as { integrity_check: string }[];
    return rows.length === 1 && rows[0]!.integrity_check === "ok" ? "ok" : `fails SQLite's integrity check (${rows.slice(0, 3).map((r) => r.integrity_check).join("; ")})`;
  } catch (error) {
    return `cannot be opened as SQLite (${(error as Error).message})`;
  } finally {
    db?.close();
  }
}

/** Puts `fresh` in place of `home` (two renames); returns where the old home went, or null. */
function swap(home: string, fresh: string, alreadyDone: string): string | null {
  if (!existsSync(home)) {
    renameSync(fresh, home);
    return null;
  }
  const previous = `${home}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  renameSync(home, previous);
  try {
    renameSync(fresh, home);
  } catch (error) {
    renameSync(previous, home);
    throw cliErrors.RESTORE_FAILED({ reason: `${(error as Error).message}${alreadyDone}`, home }, { cause: error });
  }
  return previous;
}
