import { defineHook, hostTokens } from "@muster/plugin";
import { APPROVALS } from "../tokens.ts";

/** How often expired approvals are moved to history without waiting for a read. */
const SWEEP_INTERVAL_MS = 30_000;
/** Team mode: how often the executions of instances that died are looked for. */
const DEAD_SWEEP_MS = 2_000;

/**
 * Start-up never executes anything: pending approvals stay pending, expired ones are
 * rejected, and executions a previous process left unfinished are marked failed. In team
 * mode only executions no live instance runs are failed, at start and then every
 * {@link DEAD_SWEEP_MS} (an instance killed mid-execution is noticed within seconds of its
 * heartbeat stopping).
 */
export const startApprovals = defineHook({
  deps: { approvals: APPROVALS, instances: hostTokens.instances },
  async run({ approvals, instances }, ctx) {
    const interrupted = await approvals.recoverInterrupted();
    const expired = await approvals.sweepExpired();
    if (interrupted || expired) ctx.logger.info({ interrupted, expired }, "approvals recovered at start-up");
    const timer = setInterval(() => {
      approvals.sweepExpired().catch((error: unknown) => ctx.logger.error({ err: error }, "approval expiry sweep failed"));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
    const deadSweep = instances.shared ? setInterval(() => void sweepDead(), DEAD_SWEEP_MS).unref() : undefined;
    async function sweepDead() {
      try {
        const count = await approvals.recoverInterrupted();
        if (count) ctx.logger.warn({ interrupted: count }, "approved actions of an instance that stopped answering were marked failed");
      } catch (error) {
        ctx.logger.warn({ err: error }, "approval sweep for dead instances failed");
      }
    }
    ctx.lifecycle.onStop(() => {
      clearInterval(timer);
      clearInterval(deadSweep);
    });
  },
});
