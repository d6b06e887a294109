// The `muster` command line: `muster start`, `muster plugins [list|add <package>]`.
// Feature plugins add their own commands through core/commands.ts.
import { createHost } from "./host.ts";
import { ConfigError } from "./internal/config.ts";
import { PluginGraphError } from "./internal/plugin-graph.ts";
import { MigrationError } from "./internal/database.ts";
import { addPlugin, listPlugins } from "./internal/plugin-commands.ts";
import { extraCommands } from "./commands.ts";

const USAGE = `Usage: muster <command>

  start                      start the server (what \`npm start\` runs)
  plugins [list]             list the plugins that would load, and why any would not
  plugins add <package>      install a plugin package into MUSTER_HOME and enable it
${extraCommands.map((c) => `  ${c.usage.padEnd(27)}${c.summary}`).join("\n")}
Configuration comes from the environment and $MUSTER_HOME/muster.config.json (see README).`;

async function start(): Promise<void> {
  const host = createHost();
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
  if (process.stdout.isTTY) console.error(`Muster is listening on ${host.url} (session token in ${host.config.home}/session-token)`);
}

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  switch (command) {
    case "start":
      await start();
      return -1; // keep running
    case "plugins":
      if (!sub || sub === "list") return listPlugins();
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
      if (extra) return extra.run([sub, ...rest].filter((a): a is string => a !== undefined));
      console.error(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
    }
  }
}

try {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exit(code);
} catch (error) {
  if (error instanceof ConfigError || error instanceof PluginGraphError || error instanceof MigrationError) {
    console.error(`muster: ${error.code}: ${error.message}`);
  } else {
    console.error("muster: failed to start:", error);
  }
  process.exit(1);
}
