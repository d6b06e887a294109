// PostgreSQL's own programs (pg_dump, pg_restore; initdb and postgres for the test clusters),
// found where a PostgreSQL installation puts them: `POSTGRES_BIN_DIR` alone when it is set
// (a chosen version, e.g. one matching the server's), else PATH, then Debian's versioned
// directories /usr/lib/postgresql/<major>/bin, newest first (Debian links only some of the
// programs into /usr/bin, through its version-picking pg_wrapper).
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { databaseUrl } from "./postgres-url.ts";

export const DEBIAN_POSTGRES_LIB = "/usr/lib/postgresql";

/** The directories searched, in order. */
export function postgresToolDirs(binDir: string | null, path = process.env.PATH ?? ""): string[] {
  if (binDir) return [binDir];
  const versions = existsSync(DEBIAN_POSTGRES_LIB)
    ? readdirSync(DEBIAN_POSTGRES_LIB).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
    : [];
  return [...path.split(delimiter).filter(Boolean), ...versions.map((v) => join(DEBIAN_POSTGRES_LIB, v, "bin"))];
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The path of PostgreSQL's program `name`, or null when none of {@link postgresToolDirs} has it. */
export function findPostgresTool(name: string, binDir: string | null = null): string | null {
  for (const dir of postgresToolDirs(binDir)) {
    const file = join(dir, name);
    if (executable(file)) return file;
  }
  return null;
}

/** Where a search looked, for the message that says a program is missing. */
export function searchedFor(binDir: string | null): string {
  return binDir ? `in POSTGRES_BIN_DIR ${binDir}` : `on PATH or in ${DEBIAN_POSTGRES_LIB}/<version>/bin`;
}

/** The URL as it may be printed: without its password. */
export function redactedDatabaseUrl(url: string): string {
  try {
    const { parsed, text } = databaseUrl(url);
    if (parsed.password) parsed.password = "***";
    return text();
  } catch {
    return "(not a URL)";
  }
}

/**
 * A `DATABASE_URL` split for PostgreSQL's programs: the URL without its password (it is
 * seen in the process list) and the password for the child's `PGPASSWORD` (seen only by it).
 */
export function libpqConnection(url: string): { dbname: string; env: Record<string, string> } {
  const { parsed, text } = databaseUrl(url);
  const password = parsed.password ? decodeURIComponent(parsed.password) : null;
  parsed.password = "";
  const env: Record<string, string> = {};
  if (password !== null) env.PGPASSWORD = password;
  // A server that does not answer: libpq waits forever by default.
  if (!process.env.PGCONNECT_TIMEOUT) env.PGCONNECT_TIMEOUT = "10";
  return { dbname: text(), env };
}

/** Runs a PostgreSQL program to its end; its exit status and what it wrote to stderr. */
export function runPostgresTool(file: string, args: string[], env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stderr: stderr.trim() }));
  });
}
