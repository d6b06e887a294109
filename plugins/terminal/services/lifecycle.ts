import type { PluginContext } from "@muster/plugin";
import { TERMINAL } from "../tokens.ts";
import type { TerminalService } from "./terminal-service.ts";

/** Detects bubblewrap (a real trial run) before the first command can arrive. */
export async function startTerminal(ctx: PluginContext): Promise<void> {
  await (ctx.resolve(TERMINAL) as TerminalService).start();
}
