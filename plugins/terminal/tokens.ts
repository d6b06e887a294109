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

/** Runs commands for humans (and, when configured, agents) under the terminal's rules. */
export interface TerminalRunner {
  run(request: TerminalRequest): Promise<TerminalResult>;
  /** The mode chosen at start, and why there is no sandbox when there is none. */
  mode(): { sandbox: "bwrap" | "none"; reason: string | null };
}

export const TERMINAL = token<TerminalRunner>("terminal.runner");
