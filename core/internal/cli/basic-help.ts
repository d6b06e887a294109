// The `--help` texts of the commands the CLI runs itself (start, status, login, plugins);
// the other commands carry their own (backup-command.ts, restore-command.ts, ...; plugins' commands their `help`).
export const START_HELP = `Usage: muster start

Starts the server (what \`npm start\` runs) on HOST:PORT (default 127.0.0.1:3333) with its
data in MUSTER_HOME (default ./.muster). One server per MUSTER_HOME: a second start exits 1
naming the running one. Stops cleanly on SIGINT/SIGTERM. Configuration: README.

Exit codes: 0 stopped cleanly; 1 refused or failed (another server holds MUSTER_HOME, port
in use, bad configuration); 2 usage error.`;

export const STATUS_HELP = `Usage: muster status

Shows the running server of this MUSTER_HOME (from its instance lock): url, pid, version,
uptime, health and where its session token is.

Exit codes: 0 a healthy server answers; 1 none is running, it is still starting, or it is
degraded; 2 usage error.`;

export const LOGIN_HELP = `Usage: muster login

Prints a one-time browser login link for the running server of this MUSTER_HOME (valid once,
for 10 minutes), to decide approvals in a browser. Reads the session token file; the token
itself is never printed.

Exit codes: 0 printed; 1 no server, or the token is not this server's; 2 usage error.`;

export const PLUGINS_HELP = `Usage: muster plugins [list|add <package>|remove <package>]

  plugins [list]              the plugins that would load, and why any would not
  plugins add <package>       install a plugin package (name, version spec or tarball) into
                              MUSTER_HOME and enable it in muster.config.json
  plugins remove <package>    disable it and uninstall it from MUSTER_HOME (its tables stay)

Restart the server to load or unload a plugin. Exit codes: 0 done; 1 failed (a plugin would
not load, npm failed, the package is not installed); 2 usage error.`;

export const MIGRATE_HELP = `Usage: muster migrate

Applies the pending migrations of every enabled plugin to the database (the home's SQLite
file, or PostgreSQL with DATABASE_URL) and exits, without serving: the upgrade step before
starting a new version. \`muster start\` applies them too, so this is only needed to migrate
ahead of the start (in team mode: stop every instance, run it once, then start the new
version on each). Prints each applied migration's id on stdout. Takes this MUSTER_HOME's
instance lock, so it refuses while a server of this home runs. Instances or runs that
migrate one PostgreSQL database at once take turns (each migration is applied once).

Exit codes: 0 the database is current (migrations applied or none pending); 1 a migration
failed (MIGRATION_FAILED; the ones before it stay applied) or the home is in use; 2 usage error.`;
