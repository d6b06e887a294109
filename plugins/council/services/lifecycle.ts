import { defineHook, hostTokens } from "@muster/plugin";
import { COUNCIL_RUNNER, COUNCIL_STORE } from "./service-tokens.ts";

/**
 * Sessions a previous process left `running` are failed (nothing resumes a deliberation);
 * a shutdown cancels the running ones.
 */
export const startCouncil = defineHook({
  deps: { store: COUNCIL_STORE, runner: COUNCIL_RUNNER, logger: hostTokens.logger },
  async run({ store, runner, logger }, ctx) {
    const interrupted = await store.failInterrupted(new Date().toISOString());
    if (interrupted) logger.warn({ interrupted }, "council sessions interrupted by the last stop were marked failed");
    ctx.lifecycle.onStop(() => runner.stop());
  },
});
