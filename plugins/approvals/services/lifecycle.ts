import type { PluginContext } from "@muster/plugin";
import { APPROVALS } from "../tokens.ts";

/** How often expired approvals are moved to history without waiting for a read. */
const SWEEP_INTERVAL_MS = 30_000;

/**
 * Start-up never executes anything: pending approvals stay pending, expired ones are
 * rejected, and executions a previous process left unfinished are marked failed.
 */
export function startApprovals(ctx: PluginContext): void {
  const approvals = ctx.resolve(APPROVALS);
  const interrupted = approvals.recoverInterrupted();
  const expired = approvals.sweepExpired();
  if (interrupted || expired) ctx.logger.info({ interrupted, expired }, "approvals recovered at start-up");
  const timer = setInterval(() => {
    try {
      approvals.sweepExpired();
    } catch (error) {
      ctx.logger.error({ err: error }, "approval expiry sweep failed");
    }
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  ctx.lifecycle.onStop(() => clearInterval(timer));
}
