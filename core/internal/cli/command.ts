// What every `muster` command shares: its usage text (printed by `--help`/`-h`, exit 0, and
// on stderr with exit 2 for a usage error) and strict flag parsing, so an unknown flag is a
// usage error instead of being ignored.
import { MusterError } from "../../plugin-api/errors.ts";
import { UsageError } from "../../plugin-api/command-line.ts";
import { isStartError } from "../start-errors.ts";
import { ServerRefusal } from "./server-client.ts";

/** Exit codes of every command (documented in `muster --help` and docs/cli.md). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export interface CommandStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A `muster <name>` command of the host: listed in `muster --help`, with its own `--help`. */
export interface CliCommand {
  name: string;
  /** One line per form, shown in `muster --help` (`backup [<file>]`). */
  usage: { form: string; summary: string }[];
  /** The full text `muster <name> --help` prints. */
  help: string;
  run(args: string[], io: CommandStreams): Promise<number>;
}

/**
 * A {@link CliCommand} whose `body` runs under {@link runCommand}'s rules (help, usage
 * errors, coded errors), so each command file holds only its own work.
 */
export function defineCliCommand(spec: Omit<CliCommand, "run"> & { body(args: string[], io: CommandStreams): Promise<number> }): CliCommand {
  const { body, ...described } = spec;
  const command: CliCommand = { ...described, run: (args, io) => runCommand(command, args, io, () => body(args, io)) };
  return command;
}

// Shared with plugins' commands through the plugin kit.
export { UsageError, parseCommandArgs } from "../../plugin-api/command-line.ts";

export const wantsHelp = (args: readonly string[]) => args.includes("--help") || args.includes("-h");

/**
 * Runs a command body with the shared outcome rules: `--help` prints the help (exit 0), a
 * usage error prints the reason and the help on stderr (exit 2), a coded error (ours or
 * the server's) prints `muster <name>: CODE: message` (exit 1). Anything else is a bug and propagates.
 */
export async function runCommand(command: Pick<CliCommand, "name" | "help">, args: string[], io: CommandStreams, body: () => Promise<number>): Promise<number> {
  if (wantsHelp(args)) {
    io.stdout.write(`${command.help}\n`);
    return EXIT.ok;
  }
  try {
    return await body();
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`muster ${command.name}: ${error.message}\n\n${command.help}\n`);
      return EXIT.usage;
    }
    // A start-up error (another server holds the home, port in use) keeps the CLI's `muster: CODE` line.
    if ((error instanceof MusterError && !isStartError(error)) || error instanceof ServerRefusal) {
      io.stderr.write(`muster ${command.name}: ${error.code}: ${error.message}\n`);
      return EXIT.failure;
    }
    throw error;
  }
}
