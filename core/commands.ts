// `muster` sub-commands contributed by plugins (`commands` on definePlugin, as Hardhat
// plugins contribute tasks): the CLI lists them in its usage and runs them by name. The
// core knows none of them; each plugin's `run` loads its own implementation on demand.
import type { CommandIo, PluginCommand, PluginDefinition } from "./plugin-api/define-plugin.ts";
import { hostCredential, loadConfig, type MusterConfig } from "./internal/config.ts";
import { connectToServer } from "./internal/cli/server-client.ts";
import { openPostgresFor } from "./internal/cli/open-postgres.ts";
import { reachableUrl, runningInstance } from "./internal/instance-lock.ts";
import { configuredPlugins } from "./internal/plugin-loader.ts";

/** The host's own command words; a plugin command never shadows them. */
const HOST_COMMANDS = new Set(["start", "status", "login", "migrate", "plugins", "backup", "restore", "mcp", "doctor", "help", "version", "--help", "-h", "--version", "-v"]);

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
 * The commands of the built-in plugins, then those of the plugin packages enabled in
 * muster.config.json (`muster plugins add`), so an installed plugin's command is listed and
 * runs like a built-in one. Packages are loaded only when the CLI needs them (help, or a
 * word no host command takes); one that does not load is left out here, and `muster
 * plugins` says why.
 */
export async function installedPluginCommands(builtIns: readonly PluginDefinition[]): Promise<PluginCommand[]> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch {
    return pluginCommands(builtIns); // help still answers with a broken configuration; `muster doctor` reports it
  }
  return pluginCommands(await configuredPlugins(builtIns, config, "skip"));
}

/**
 * What a plugin command receives: configuration (environment and file), read when first
 * used, so that a usage error is reported before a configuration problem; and the process streams.
 */
export function commandIo(): CommandIo {
  let loaded: MusterConfig | undefined;
  const config = () => (loaded ??= loadConfig());
  const running = () => runningInstance(config().home);
  return {
    get home() {
      return config().home;
    },
    credential: (name) => hostCredential(config(), name),
    server: () => connectToServer(config()),
    get runningServer() {
      const url = running()?.url;
      return url ? reachableUrl(url) : null;
    },
    get serverHeaders(): Record<string, string> {
      const token = config().apiToken;
      return token ? { authorization: `Bearer ${token}` } : {};
    },
    env: process.env,
    openPostgres: (entities) => openPostgresFor(config().databaseUrl, entities),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  };
}
