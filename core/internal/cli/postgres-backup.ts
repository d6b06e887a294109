// The PostgreSQL side of `muster backup` and `muster restore` (team mode, issue 25): the
// database goes through PostgreSQL's own pg_dump and pg_restore, never through a home-made
// copy. The password travels in the child's PGPASSWORD, never in an argument (which every
// user of the machine sees in the process list) nor in a message.
import { findPostgresTool, libpqConnection, redactedDatabaseUrl, runPostgresTool, searchedFor } from "../postgres-tools.ts";
import { cliErrors } from "./cli-errors.ts";

/** The path of pg_dump or pg_restore, or POSTGRES_CLIENT_MISSING naming the package. */
export function requirePostgresTool(tool: "pg_dump" | "pg_restore", binDir: string | null): string {
  const found = findPostgresTool(tool, binDir);
  if (!found) throw cliErrors.POSTGRES_CLIENT_MISSING({ tool, searched: searchedFor(binDir) });
  return found;
}

/** What a program said, without the password should it ever echo the URL. */
function said(stderr: string, url: string, fallback: string): string {
  const password = new URL(url).password;
  const text = stderr || fallback;
  return password ? text.split(password).join("***").split(decodeURIComponent(password)).join("***") : text;
}

/**
 * `pg_dump --format=custom` of the whole database into `file`: one transaction, so one
 * consistent snapshot while the servers keep writing. A pg_dump older than the server refuses
 * ("server version mismatch"); its own words are the error's reason.
 */
export async function dumpPostgres(pgDump: string, url: string, file: string): Promise<void> {
  const { dbname, env } = libpqConnection(url);
  const run = await runPostgresTool(pgDump, ["--format=custom", "--no-password", `--file=${file}`, `--dbname=${dbname}`], env);
  if (run.status !== 0) throw new Error(`pg_dump of ${redactedDatabaseUrl(url)} failed: ${said(run.stderr, url, `exit ${run.status}`)}`);
}

/** Why pg_restore cannot read `file` as a dump (its table of contents), or null when it can. */
export async function unreadableDump(pgRestore: string, file: string): Promise<string | null> {
  const run = await runPostgresTool(pgRestore, ["--list", file], {});
  return run.status === 0 ? null : run.stderr || `pg_restore --list exited ${run.status}`;
}

/**
 * `pg_restore --clean --if-exists --single-transaction --no-owner`: the backup's objects are
 * dropped and re-created with its rows in one transaction, so a failure anywhere leaves the
 * database as it was (RESTORE_DATABASE_FAILED says so).
 */
export async function restorePostgres(pgRestore: string, url: string, file: string, home: string): Promise<void> {
  const { dbname, env } = libpqConnection(url);
  const run = await runPostgresTool(pgRestore, ["--clean", "--if-exists", "--single-transaction", "--no-owner", "--no-password", `--dbname=${dbname}`, file], env);
  if (run.status !== 0) throw cliErrors.RESTORE_DATABASE_FAILED({ url: redactedDatabaseUrl(url), home, reason: said(run.stderr, url, `exit ${run.status}`) });
}
