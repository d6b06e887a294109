import type { PluginContext } from "@muster/plugin";
import { COUNCIL_RUNNER, COUNCIL_STORE } from "./register.ts";

/**
 * Sessions a previous process left `running` are failed (nothing resumes a deliberation);
 * a shutdown cancels the running ones.
 */
export function startCouncil(ctx: PluginContext): void {
  const interrupted = ctx.resolve(COUNCIL_STORE).failInterrupted(new Date().toISOString());
  if (interrupted) ctx.logger.warn({ interrupted }, "council sessions interrupted by the last stop were marked failed");
  const runner = ctx.resolve(COUNCIL_RUNNER);
  ctx.lifecycle.onStop(() => runner.stop());
}
