import pino, { type DestinationStream, type Logger } from "pino";
import { formatLogLine } from "./log-format.ts";

export interface LoggerOptions {
  /** Human-readable lines instead of JSON; default: when stdout is a terminal (DESIGN §1). */
  pretty?: boolean;
  /** Where lines go; default stdout. */
  destination?: NodeJS.WritableStream;
}

/**
 * JSON logs to stdout, or readable lines when stdout is a terminal (formatted in process
 * by log-format.ts: no extra dependency). Secrets never reach the logger: request bodies
 * are not logged and known secret-bearing keys are redacted as a second line of defence.
 */
export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const out = options.destination ?? process.stdout;
  const terminal = (out as { isTTY?: boolean }).isTTY === true;
  const pretty = options.pretty ?? terminal;
  const settings = {
    level,
    base: { service: "muster" },
    redact: {
      paths: ["value", "*.value", "token", "*.token", "authorization", "*.authorization", "req.headers.authorization", 'req.headers["x-session-token"]'],
      censor: "[redacted]",
    },
  };
  if (pretty) return pino(settings, prettyDestination(out, terminal));
  return options.destination ? pino(settings, options.destination as DestinationStream) : pino(settings);
}

/** pino writes one JSON line per call; each is reformatted before it reaches the terminal. */
function prettyDestination(out: NodeJS.WritableStream, colors: boolean): DestinationStream {
  return { write: (line: string) => void out.write(formatLogLine(line, { colors })) };
}
