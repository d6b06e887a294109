// The `muster` command line: `muster start`, `muster login`, `muster plugins [list|add <package>]`.
// This is the program that assembles Muster: it hands the built-in plugins to the host,
// and their `commands` (core/commands.ts) become `muster <name>` sub-commands.
import { join } from "node:path";
import { createHost } from "./host.ts";
import { loadConfig } from "./internal/config.ts";
import { runLoginCommand } from "./internal/login-command.ts";
import { isStartError } from "./internal/start-errors.ts";
import { packageVersion } from "./internal/package-version.ts";
import { runStatusCommand } from "./internal/status-command.ts";
import { addPlugin, listPlugins } from "./internal/plugin-commands.ts";
import { commandIo, pluginCommands } from "./commands.ts";
import { builtInPlugins } from "../plugins/built-in.ts";

const extraCommands = pluginCommands(builtInPlugins);

const USAGE = `Usage: muster <command>

  start                      start the server (what \`npm start\` runs); one server per MUSTER_HOME
  status                     the running server of this MUSTER_HOME: url, pid, version, uptime, database
  login                      print a one-time browser login link for the running server
  plugins [list]             list the plugins that would load, and why any would not
  plugins add <package>      install a plugin package into MUSTER_HOME and enable it
${extraCommands.map((c) => `  ${c.usage.padEnd(27)}${c.summary}`).join("\n")}
  --version                  print Muster's version

Configuration comes from the environment and $MUSTER_HOME/muster.config.json (see README).

Exit codes: 0 success; 1 failure (start refused or failed, e.g. another server holds
MUSTER_HOME or the port is in use; status: no healthy server running); 2 usage error.`;

async function start(): Promise<void> {
  const host = createHost({ plugins: builtInPlugins });
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

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  switch (command) {
    case "start":
      await start();
      return -1; // keep running
    case "login":
      return runLoginCommand({ config: loadConfig(), stdout: process.stdout, stderr: process.stderr });
    case "status":
      return runStatusCommand({ config: loadConfig(), stdout: process.stdout, stderr: process.stderr });
    case "--version":
    case "-v":
    case "version":
      console.log(packageVersion);
      return 0;
    case "plugins":
      if (!sub || sub === "list") return listPlugins(builtInPlugins);
      if (sub === "add" && rest[0]) return addPlugin(rest[0]);
      console.error(USAGE);
      return 2;
    case undefined:
    case "help":
    case "--help":
    case "-h":
      console.log(USAGE);
      return command ? 0 : 2;
    default: {
      const extra = extraCommands.find((c) => c.name === command);
      if (extra) return extra.run([sub, ...rest].filter((a): a is string => a !== undefined), commandIo());
      console.error(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
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
    console.error("muster: failed to start:", error);
  }
  process.exit(1);
}
