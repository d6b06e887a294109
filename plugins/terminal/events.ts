/** What every finished command reports: never the command text, its output or secret names. */
export interface TerminalCommandEvent {
  agentId: string | null;
  cwd: string;
  exitCode: number;
  durationMs: number;
  timedOut: boolean;
  truncated: boolean;
  sandbox: "bwrap" | "none";
}

/** Events the terminal publishes (public: forwarded to SSE clients). */
export type TerminalEvents = { "terminal.command.executed": TerminalCommandEvent };

declare module "@muster/plugin" {
  interface MusterEvents extends TerminalEvents {}
}
