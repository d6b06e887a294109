import { defineHook, hostTokens } from "@muster/plugin";
import { COUNCIL_RUNNER, COUNCIL_STORE } from "./service-tokens.ts";

/**
 * Sessions a previous process left `running` are failed (nothing resumes a deliberation);
 * a shutdown cancels the running ones. In team mode only sessions no live instance is
 * deliberating are failed, at start and then every 2 s (`instances.everyWhileShared`) (an instance killed
 * mid-deliberation is noticed within seconds of its heartbeat stopping).
 */
export const startCouncil = defineHook({
  deps: { store: COUNCIL_STORE, runner: COUNCIL_RUNNER, logger: hostTokens.logger, instances: hostTokens.instances },
  async run({ store, runner, logger, instances }, ctx) {
    const interrupted = await store.failInterrupted(new Date().toISOString(), await instances.liveIds());
    if (interrupted) logger.warn({ interrupted }, "council sessions interrupted by the last stop were marked failed");
    instances.everyWhileShared("council sweep for dead instances", async () => {
      const count = await store.failInterrupted(new Date().toISOString(), await instances.liveIds());
      if (count) logger.warn({ interrupted: count }, "council sessions of an instance that stopped answering were marked failed");
    });
    ctx.lifecycle.onStop(() => runner.stop());
  },
});
