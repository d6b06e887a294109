import { z } from "@muster/plugin";

const envVar = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "an environment variable name (letters, digits, _)");
const secretName = z.string().min(1).max(128);

export const terminalBody = z.strictObject({
  /** One command line: a plain argv without the sandbox, an `sh -c` line inside it. */
  command: z.string().min(1).max(8000).refine((c) => !c.includes("\0"), "must not contain NUL characters"),
  /** Working directory; must resolve (realpath) inside $HOME or the temp directory, not in MUSTER_HOME but its workspace. Default the workspace (else $HOME). */
  cwd: z.string().min(1).max(4096).refine((c) => !c.includes("\0"), "must not contain NUL characters").optional(),
  /** Deadline in ms (default 30,000, at most 120,000); the whole process group is killed at it. */
  timeoutMs: z.number().int().min(1).max(120_000).optional(),
  /** Environment variable → vault secret name, injected for this command only; values are masked in the output. */
  secrets: z.record(envVar, secretName).refine((s) => Object.keys(s).length <= 32, "at most 32 secrets").optional(),
});

export const terminalResponse = z.object({
  ok: z.literal(true),
  output: z.string(),
  exitCode: z.number().int(),
  durationMs: z.number().int(),
  truncated: z.boolean(),
  timedOut: z.boolean(),
  sandbox: z.enum(["bwrap", "none"]),
});

export const terminalStatusResponse = z.object({
  ok: z.literal(true),
  /** `bwrap`: sandboxed; `none`: the opt-in unsandboxed mode (allowlisted programs, no shell); `off`: commands are refused with 503. */
  mode: z.enum(["bwrap", "none", "off"]),
  reason: z.string(),
  /** `terminal.sandbox` as configured. */
  configured: z.enum(["auto", "bwrap", "none"]),
  allowAgents: z.boolean(),
  /** The programs that may run in `none` mode; null in the others. */
  programs: z.array(z.string()).nullable(),
});
