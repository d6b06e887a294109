// `muster` sub-commands contributed by plugins (`commands` on definePlugin, as Hardhat
// plugins contribute tasks): the CLI lists them in its usage and runs them by name. The
// core knows none of them; each plugin's `run` loads its own implementation on demand.
import type { CommandIo, PluginCommand, PluginDefinition } from "./plugin-api/define-plugin.ts";
import { hostCredential, loadConfig, type MusterConfig } from "./internal/config.ts";
import { connectToServer } from "./internal/cli/server-client.ts";

/** The host's own command words; a plugin command never shadows them. */
const HOST_COMMANDS = new Set(["start", "status", "login", "plugins", "backup", "restore", "mcp", "doctor", "help", "version", "--help", "-h", "--version", "-v"]);

/** Every plugin's commands, in plugin order; a name already taken (host or earlier plugin) is skipped. */
export function pluginCommands(plugins: readonly PluginDefinition[]): PluginCommand[] {
  const taken = new Set(HOST_COMMANDS);
  const commands: PluginCommand[] = [];
  for (const plugin of plugins) {
    for (const command of plugin.commands ?? []) {
      if (taken.has(command.name)) continue;
      taken.add(command.name);
      commands.push(command);
    }
  }
  return commands;
}

/**
 * What a plugin command receives: configuration (environment and file), read when first
 * used, so that a usage error is reported before a configuration problem; and the process streams.
 */
export function commandIo(): CommandIo {
  let loaded: MusterConfig | undefined;
  const config = () => (loaded ??= loadConfig());
  return {
    get home() {
      return config().home;
    },
    credential: (name) => hostCredential(config(), name),
    server: () => connectToServer(config()),
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  };
}
