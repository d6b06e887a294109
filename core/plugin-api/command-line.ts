// What a plugin's `muster <name>` command shares with the host's commands: strict argument
// parsing that turns every mistake into a usage error, and the client of the running server
// (`CommandIo.server()`). The CLI applies the same outcome rules to every command: a thrown
// UsageError prints the reason and the command's help on stderr (exit 2); a coded error
// (a MusterError or the server's refusal) prints `muster <name>: CODE: message` (exit 1).
import { parseArgs, type ParseArgsConfig } from "node:util";

/** Thrown for a usage mistake: the command prints its help on stderr and exits 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** node:util parseArgs, strict; every parsing problem becomes a {@link UsageError}. */
export function parseCommandArgs<O extends Options>(args: string[], options: O, positionals: { min: number; max: number }) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const count = parsed.positionals.length;
  if (count < positionals.min) throw new UsageError("missing argument");
  if (count > positionals.max) throw new UsageError(`unexpected argument "${parsed.positionals[positionals.max]}"`);
  return parsed;
}

export interface ServerRequest {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sends the session token (the human's credential) as X-Session-Token. */
  session?: boolean;
  headers?: Record<string, string>;
}

/** The running server of this MUSTER_HOME, found through its instance lock; the API token is sent when configured. */
export interface ServerClient {
  readonly url: string;
  /** The parsed JSON body of a 2xx answer; throws the server's coded error otherwise (or a CLI_* error when there is no server). */
  request<T = unknown>(method: string, path: string, init?: ServerRequest): Promise<T>;
}
