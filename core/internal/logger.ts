import pino, { type Logger } from "pino";

/**
 * JSON logs to stdout; pretty printing is left to tools such as `pino-pretty` so the
 * server needs no extra dependency. Secrets never reach the logger: request bodies are
 * not logged and known secret-bearing keys are redacted as a second line of defence.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "muster" },
    redact: {
      paths: ["value", "*.value", "token", "*.token", "authorization", "*.authorization", "req.headers.authorization", 'req.headers["x-session-token"]'],
      censor: "[redacted]",
    },
  });
}
