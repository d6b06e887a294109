import type { PluginContext } from "@muster/plugin";
import { TERMINAL } from "../tokens.ts";
import type { TerminalService } from "./terminal-service.ts";

/** Starts detecting bubblewrap (a real trial run); the first command waits for the answer. */
export function startTerminal(ctx: PluginContext): void {
  const terminal = ctx.resolve(TERMINAL) as TerminalService;
  terminal.start();
  ctx.lifecycle.onStop(() => terminal.stop());
}
