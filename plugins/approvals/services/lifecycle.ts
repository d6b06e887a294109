import { defineHook } from "@muster/plugin";
import { APPROVALS } from "../tokens.ts";

/** How often expired approvals are moved to history without waiting for a read. */
const SWEEP_INTERVAL_MS = 30_000;

/**
 * Start-up never executes anything: pending approvals stay pending, expired ones are
 * rejected, and executions a previous process left unfinished are marked failed.
 */
export const startApprovals = defineHook({
  deps: { approvals: APPROVALS },
  async run({ approvals }, ctx) {
    const interrupted = await approvals.recoverInterrupted();
    const expired = await approvals.sweepExpired();
    if (interrupted || expired) ctx.logger.info({ interrupted, expired }, "approvals recovered at start-up");
    const timer = setInterval(() => {
      approvals.sweepExpired().catch((error: unknown) => ctx.logger.error({ err: error }, "approval expiry sweep failed"));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
    ctx.lifecycle.onStop(() => clearInterval(timer));
  },
});
