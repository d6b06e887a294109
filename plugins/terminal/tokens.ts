import { token } from "@muster/plugin";

/** One command as `POST /api/terminal` takes it. */
export interface TerminalRequest {
  command: string;
  cwd?: string;
  timeoutMs?: number;
  /** Environment variable → vault secret name; values are injected for this command only. */
  secrets?: Record<string, string>;
  /** The caller's X-Agent-Id, or null for a human. */
  agentId: string | null;
  /** Aborts (kills) the command, e.g. when the client disconnects. */
  signal?: AbortSignal;
}

export interface TerminalResult {
  output: string;
  exitCode: number;
  durationMs: number;
  truncated: boolean;
  timedOut: boolean;
  sandbox: "bwrap" | "none";
}

/** What `GET /api/terminal` reports. */
export interface TerminalStatus {
  /** `bwrap`: sandboxed; `none`: the opt-in unsandboxed allowlist mode; `off`: commands are refused (no usable bubblewrap, no opt-in). */
  mode: "bwrap" | "none" | "off";
  /** Why this mode is active. */
  reason: string;
  /** `terminal.sandbox` as configured. */
  configured: "auto" | "bwrap" | "none";
  allowAgents: boolean;
  /** In `none` mode, the programs that may run; else null. */
  programs: string[] | null;
}

/** Runs commands for humans (and, when configured, agents) under the terminal's rules. */
export interface TerminalRunner {
  run(request: TerminalRequest): Promise<TerminalResult>;
  /** The mode chosen at start (waits for bubblewrap detection), and why. */
  status(): Promise<TerminalStatus>;
}

export const TERMINAL = token<TerminalRunner>("terminal.runner");
