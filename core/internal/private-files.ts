// MUSTER_HOME holds the session token, the database and the vault's ciphertexts: only the
// owner may read it. Modes are set on every start, because a directory or file created
// earlier (by an older version, a restore, another umask) keeps its old mode otherwise.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";

/** Creates `dir` if needed and makes it 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * Makes each existing file 0600; with `create`, first creates a missing one empty with that
 * mode (an empty file is a valid new SQLite database, and SQLite gives its -wal and -shm
 * files the database file's mode).
 */
export function ensurePrivateFiles(paths: string[], options: { create?: boolean } = {}): void {
  for (const path of paths) {
    if (!existsSync(path)) {
      if (!options.create) continue;
      closeSync(openSync(path, "a", 0o600));
    }
    chmodSync(path, 0o600);
  }
}
