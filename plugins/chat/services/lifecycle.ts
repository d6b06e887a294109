import type { PluginContext } from "@muster/plugin";
import { DIRECTORY, TURN_RUNNER } from "./register.ts";

/** Keeps the known-agent cache fresh while running; at shutdown, fails the turns still in flight. */
export function startChat(ctx: PluginContext): void {
  const stopDirectory = ctx.resolve(DIRECTORY).start();
  const runner = ctx.resolve(TURN_RUNNER);
  ctx.lifecycle.onStop(() => {
    stopDirectory();
    runner.stop();
  });
}
