import { z } from "@muster/plugin";

/** `config.terminal` in muster.config.json (docs/terminal.md). */
export const terminalConfig = z.strictObject({
  /** Let requests that carry X-Agent-Id run commands (they still need the session token). */
  allowAgents: z.boolean().default(false),
  /**
   * `auto` uses bubblewrap when a trial run at start succeeds, else falls back to `none` with a
   * logged reason; `bwrap` refuses commands (503) rather than fall back; `none` never sandboxes.
   */
  sandbox: z.enum(["auto", "bwrap", "none"]).default("auto"),
  /** Commands started per rolling minute (the concurrency cap is fixed at 2). */
  perMinute: z.number().int().min(1).max(10_000).default(600),
  /** Sandboxed commands: processes the command may have at once (fork bombs stop here). */
  maxProcesses: z.number().int().min(4).max(4096).default(256),
  /** Sandboxed commands: largest file the command may write, in bytes. */
  maxFileBytes: z.number().int().min(1024).max(64 * 1024 ** 3).default(1024 ** 3),
  /** Sandboxed commands: CPU seconds the command may use. */
  cpuSeconds: z.number().int().min(1).max(3600).default(120),
});

export type TerminalConfig = z.output<typeof terminalConfig>;
