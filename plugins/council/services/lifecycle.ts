import { defineHook, hostTokens } from "@muster/plugin";
import { COUNCIL_RUNNER, COUNCIL_STORE } from "./service-tokens.ts";

/** Team mode: how often the sessions of instances that died are looked for. */
const SWEEP_MS = 2_000;

/**
 * Sessions a previous process left `running` are failed (nothing resumes a deliberation);
 * a shutdown cancels the running ones. In team mode only sessions no live instance is
 * deliberating are failed, at start and then every {@link SWEEP_MS} (an instance killed
 * mid-deliberation is noticed within seconds of its heartbeat stopping).
 */
export const startCouncil = defineHook({
  deps: { store: COUNCIL_STORE, runner: COUNCIL_RUNNER, logger: hostTokens.logger, instances: hostTokens.instances },
  async run({ store, runner, logger, instances }, ctx) {
    const interrupted = await store.failInterrupted(new Date().toISOString(), await instances.liveIds());
    if (interrupted) logger.warn({ interrupted }, "council sessions interrupted by the last stop were marked failed");
    const sweep = instances.shared ? setInterval(() => void sweepDead(), SWEEP_MS).unref() : undefined;
    async function sweepDead() {
      try {
        const count = await store.failInterrupted(new Date().toISOString(), await instances.liveIds());
        if (count) logger.warn({ interrupted: count }, "council sessions of an instance that stopped answering were marked failed");
      } catch (error) {
        logger.warn({ err: error }, "council sweep for dead instances failed");
      }
    }
    ctx.lifecycle.onStop(() => {
      clearInterval(sweep);
      return runner.stop();
    });
  },
});
