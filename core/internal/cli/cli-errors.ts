// Why a `muster` command (approvals, backup, restore, plugins remove, mcp) failed. None of
// these reaches HTTP: status 500 by convention, as the start-up errors (docs/errors.md); the
// command prints `muster <command>: CODE: message` and exits 1.
import { defineErrors } from "../../plugin-api/errors.ts";

export const cliErrors = defineErrors({
  CLI_SERVER_NOT_RUNNING: { status: 500, message: "No server is running on MUSTER_HOME {home}; start it with `muster start` (same MUSTER_HOME)" },
  CLI_SERVER_UNREACHABLE: { status: 500, message: "The server of MUSTER_HOME {home} does not answer at {url}" },
  CLI_SESSION_TOKEN_UNREADABLE: { status: 500, message: "Cannot read the session token {path}: {reason}" },
  CLI_SERVER_ANSWER_INVALID: { status: 500, message: "The server answered {method} {path} with HTTP {status} and no Muster JSON body" },
  BACKUP_TARGET_EXISTS: { status: 500, message: "{path} already exists; a backup never overwrites a file" },
  BACKUP_NO_DATABASE: { status: 500, message: "There is no database {path} to back up (has Muster ever started on this MUSTER_HOME?)" },
  BACKUP_FAILED: { status: 500, message: "The backup failed and nothing was written to {path}: {reason}" },
  RESTORE_SERVER_RUNNING: { status: 500, message: "A server is running on MUSTER_HOME {home} ({holder}); stop it before restoring" },
  RESTORE_ARCHIVE_INVALID: { status: 500, message: "{path} is not a restorable Muster backup: {reason}; nothing was changed" },
  RESTORE_FAILED: { status: 500, message: "The restore failed: {reason}; MUSTER_HOME {home} is as it was" },
  RESTORE_ENGINE_MISMATCH: { status: 500, message: "{path} is a backup of a {backup} database and this deployment's database is {deployment}; a backup restores only into the engine it was taken from; nothing was changed" },
  RESTORE_DATABASE_FAILED: { status: 500, message: "pg_restore failed, in one transaction that was rolled back: the database {url} and MUSTER_HOME {home} are as they were. pg_restore said: {reason}" },
  POSTGRES_CLIENT_MISSING: { status: 500, message: "{tool} was not found {searched}; install PostgreSQL's client programs of the server's major version or newer (Debian: apt-get install postgresql-client), or set POSTGRES_BIN_DIR to the directory that holds them" },
  PLUGIN_NOT_INSTALLED: { status: 500, message: "\"{name}\" is neither enabled in muster.config.json nor installed in MUSTER_HOME {home}" },
});
