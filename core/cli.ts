// The `muster` command line: `muster start`, `status`, `login`, `migrate`, `plugins`, `backup`,
// `restore`, `mcp`, `doctor`, and the plugins' commands (`approvals`, `vault`, ...). This
// is the program that assembles Muster: it hands the built-in plugins to the host, and their
// `commands` (core/commands.ts) become `muster <name>` sub-commands, as do those of the plugin
// packages enabled in muster.config.json. Every command answers
// `--help`/`-h` with its usage (exit 0); a usage mistake prints it on stderr (exit 2).
import { join } from "node:path";
import { createHost } from "./host.ts";
import { loadConfig } from "./internal/config.ts";
import { runLoginCommand } from "./internal/login-command.ts";
import { isStartError } from "./internal/start-errors.ts";
import { packageVersion } from "./internal/package-version.ts";
import { runStatusCommand } from "./internal/status-command.ts";
import { addPlugin, listPlugins, removePlugin } from "./internal/plugin-commands.ts";
import { backupCommand } from "./internal/cli/backup-command.ts";
import { restoreCommand } from "./internal/cli/restore-command.ts";
import { mcpCommand } from "./internal/mcp/mcp-command.ts";
import { doctorCommand } from "./internal/doctor-command.ts";
import { LOGIN_HELP, MIGRATE_HELP, PLUGINS_HELP, START_HELP, STATUS_HELP } from "./internal/cli/basic-help.ts";
import { createLogger } from "./internal/logger.ts";
import { defineCliCommand, EXIT, runCommand, type CliCommand } from "./internal/cli/command.ts";
import { commandIo, installedPluginCommands } from "./commands.ts";
import type { PluginCommand } from "./plugin-api/define-plugin.ts";
// The built-in plugins are loaded when a command needs them: `muster start` hands the loader
// to the host, which calls it after the server listens (their modules were a third of what a
// start loaded; issue 26), and a command that needs none of them never loads them.
import { loadBuiltInPlugins } from "../plugins/built-in-loaders.ts";

/** The host's own commands that read the built-in plugins (their MCP tools, doctor checks, migrations). */
const hostCommands = async (): Promise<CliCommand[]> => {
  const plugins = await loadBuiltInPlugins();
  return [
    backupCommand(loadConfig),
    restoreCommand(loadConfig),
    mcpCommand(loadConfig, plugins),
    doctorCommand({ migrations: plugins.map((p) => ({ pluginId: p.id, names: (p.migrations ?? []).map((m) => m.name) })), plugins }),
  ];
};

const line = (form: string, summary: string) => `  ${form.padEnd(33)}${summary}`;

const usage = (hostCommands: CliCommand[], extraCommands: PluginCommand[]) => `Usage: muster <command> [--help]

${line("start", "start the server (what `npm start` runs); one server per MUSTER_HOME")}
${line("status", "the running server of this MUSTER_HOME: url, pid, version, uptime, database")}
${line("login", "print a one-time browser login link for the running server")}
${line("migrate", "apply pending database migrations and exit (the upgrade step)")}
${line("plugins [list]", "list the plugins that would load, and why any would not")}
${line("plugins add <package>", "install a plugin package into MUSTER_HOME and enable it")}
${line("plugins remove <package>", "disable a plugin package and uninstall it from MUSTER_HOME")}
${hostCommands.flatMap((c) => c.usage.map((u) => line(u.form, u.summary))).join("\n")}
${extraCommands.map((c) => line(c.usage, c.summary)).join("\n")}
${line("--version", "print Muster's version")}

\`muster <command> --help\` describes a command. Configuration comes from the environment and
$MUSTER_HOME/muster.config.json (see README); docs/cli.md describes every command.

Exit codes: 0 success; 1 failure (start refused or failed, e.g. another server holds
MUSTER_HOME or the port is in use; status: no healthy server running; a command refused by
the server or failed, printed as \`CODE: message\`); 2 usage error (unknown command or flag,
missing argument).`;

async function start(): Promise<void> {
  const host = createHost({ plugins: loadBuiltInPlugins });
  const shutdown = (signal: string) => {
    host.logger.info({ signal }, "shutting down");
    host.stop().then(
      () => process.exit(0),
      (error) => {
        host.logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  await host.start();
  // Always, on stderr (stdout carries the JSON log when it is not a terminal).
  console.error(`Muster ${packageVersion} is listening on ${host.url}; session token in ${join(host.config.home, "session-token")}`);
  // On stderr, never in the JSON log: the link is a credential (single use, 10 minutes).
  console.error(`Log in from a browser (to decide approvals): ${host.loginLink().url}\n(valid once for 10 minutes; \`muster login\` prints a new one)`);
}

/** A command the CLI runs itself, as a {@link CliCommand} for the shared help and usage-error handling. */
const basic = (name: string, help: string, run: (args: string[]) => Promise<number>): CliCommand =>
  defineCliCommand({ name, usage: [], help, body: (args) => run(args) });

/** Refuses any argument: these commands take none. */
const noArguments = (name: string, help: string, run: () => Promise<number>) =>
  basic(name, help, async (args) => {
    if (args.length > 0) return usageError(name, `unexpected argument "${args[0]}"`, help);
    return run();
  });

function usageError(name: string, reason: string, help: string): number {
  console.error(`muster ${name}: ${reason}\n\n${help}`);
  return EXIT.usage;
}

const io = { stdout: process.stdout, stderr: process.stderr };

const basicCommands: CliCommand[] = [
  noArguments("start", START_HELP, async () => {
    await start();
    return -1; // keep running
  }),
  noArguments("migrate", MIGRATE_HELP, async () => {
    // The log on stderr (warnings only): stdout carries the applied ids, one per line.
    const host = createHost({ plugins: await loadBuiltInPlugins(), logger: createLogger("warn", { destination: process.stderr }) });
    const applied = await host.migrate();
    for (const id of applied) console.log(id);
    const engine = host.config.databaseUrl ? "PostgreSQL" : `SQLite (${join(host.config.home, "muster.db")})`;
    console.error(applied.length ? `Applied ${applied.length} migration(s) to ${engine}.` : `${engine}: no pending migration.`);
    return EXIT.ok;
  }),
  noArguments("login", LOGIN_HELP, () => runLoginCommand({ config: loadConfig(), ...io })),
  noArguments("status", STATUS_HELP, () => runStatusCommand({ config: loadConfig(), ...io })),
  basic("plugins", PLUGINS_HELP, async ([sub, ...rest]) => {
    if ((sub === undefined || sub === "list") && rest.length === 0) return listPlugins(await loadBuiltInPlugins());
    const [spec, ...more] = rest;
    const named = spec !== undefined && !spec.startsWith("-") && more.length === 0;
    if (sub === "add" && named) return addPlugin(spec);
    if (sub === "remove" && named) return removePlugin(spec);
    return usageError("plugins", sub === "add" || sub === "remove" ? `plugins ${sub} takes one package name` : `unknown sub-command "${sub}"`, PLUGINS_HELP);
  }),
];

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case "--version":
    case "-v":
    case "version":
      console.log(packageVersion);
      return EXIT.ok;
    case undefined:
    case "help":
    case "--help":
    case "-h": {
      const text = usage(await hostCommands(), await installedPluginCommands(await loadBuiltInPlugins()));
      if (command) console.log(text);
      else console.error(text);
      return command ? EXIT.ok : EXIT.usage;
    }
    default: {
      const basicCommand = basicCommands.find((c) => c.name === command);
      if (basicCommand) return basicCommand.run(args, io);
      const ownCommands = await hostCommands();
      const own = ownCommands.find((c) => c.name === command);
      if (own) return own.run(args, io);
      const extraCommands = await installedPluginCommands(await loadBuiltInPlugins());
      const extra = extraCommands.find((c) => c.name === command);
      // The host's outcome rules (help, usage errors, coded errors) hold for plugins' commands too.
      if (extra) return runCommand({ name: extra.name, help: extra.help ?? `Usage: muster ${extra.usage}\n\n${extra.summary}` }, args, io, () => extra.run(args, commandIo()));
      console.error(`Unknown command "${command}".\n\n${usage(ownCommands, extraCommands)}`);
      return EXIT.usage;
    }
  }
}

try {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exit(code);
} catch (error) {
  if (isStartError(error)) {
    console.error(`muster: ${error.code}: ${error.message}`);
  } else {
    // An unexpected failure (a bug or an I/O error no command turned into a code): the whole error, for a report.
    console.error(`muster: ${process.argv[2] === "start" ? "failed to start" : `${process.argv[2] ?? "command"} failed`}:`, error);
  }
  process.exit(1);
}
