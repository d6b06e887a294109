import type { PluginContext } from "@muster/plugin";
import { AGENTS } from "../../agents/tokens.ts";
import { DIRECTORY, TURN_RUNNER } from "./register.ts";

/** Keeps the known-agent cache fresh while running; at shutdown, fails the turns still in flight. */
export function startChat(ctx: PluginContext): void {
  // With the agents plugin loaded its directory answers and keeps agents.list fresh itself.
  const stopDirectory = ctx.has(AGENTS) ? () => {} : ctx.resolve(DIRECTORY).start();
  const runner = ctx.resolve(TURN_RUNNER);
  ctx.lifecycle.onStop(() => {
    stopDirectory();
    runner.stop();
  });
}
