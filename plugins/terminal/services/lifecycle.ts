import { defineHook } from "@muster/plugin";
import { TERMINAL } from "../tokens.ts";
import type { TerminalService } from "./terminal-service.ts";

/** Ready for commands; bubblewrap's detection (a real trial run) starts once the host serves, and the first command waits for it. */
export const startTerminal = defineHook({
  deps: { runner: TERMINAL },
  run({ runner }, ctx) {
    // The plugin's own service behind its public token: start and stop are not part of what others see.
    const terminal = runner as TerminalService;
    terminal.start();
    ctx.lifecycle.onServing(() => terminal.warmUp());
    ctx.lifecycle.onStop(() => terminal.stop());
  },
});
