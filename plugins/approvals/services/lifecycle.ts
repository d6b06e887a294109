import { defineHook, hostTokens } from "@muster/plugin";
import { APPROVALS } from "../tokens.ts";

/** How often expired approvals are moved to history without waiting for a read. */
const SWEEP_INTERVAL_MS = 30_000;

/**
 * Start-up never executes anything: pending approvals stay pending, expired ones are
 * rejected, and executions a previous process left unfinished are marked failed. In team
 * mode only executions no live instance runs are failed, at start and then every
 * 2 s (`instances.everyWhileShared`) (an instance killed mid-execution is noticed within seconds of its
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
    instances.everyWhileShared("approval sweep for dead instances", async () => {
      const count = await approvals.recoverInterrupted();
      if (count) ctx.logger.warn({ interrupted: count }, "approved actions of an instance that stopped answering were marked failed");
    });
    ctx.lifecycle.onStop(() => clearInterval(timer));
  },
});
