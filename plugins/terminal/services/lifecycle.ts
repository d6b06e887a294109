import { defineHook } from "@muster/plugin";
import { TERMINAL } from "../tokens.ts";
import type { TerminalService } from "./terminal-service.ts";

/** Starts detecting bubblewrap (a real trial run); the first command waits for the answer. */
export const startTerminal = defineHook({
  deps: { runner: TERMINAL },
  run({ runner }, ctx) {
    // The plugin's own service behind its public token: start and stop are not part of what others see.
    const terminal = runner as TerminalService;
    terminal.start();
    ctx.lifecycle.onStop(() => terminal.stop());
  },
});
