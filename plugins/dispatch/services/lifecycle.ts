import type { PluginContext } from "@muster/plugin";
import { DISPATCH_SERVICE, REVIEW_FLOW } from "./register.ts";

/**
 * Starts the review flow (gated action, task guard, event listeners) and recovers the
 * dispatches a previous process left in flight as `interrupted` (never re-sent). At
 * shutdown, runs still in flight are left for that recovery.
 */
export async function startDispatch(ctx: PluginContext): Promise<void> {
  const stopReviews = ctx.resolve(REVIEW_FLOW).start();
  const dispatcher = ctx.resolve(DISPATCH_SERVICE);
  const recovered = await dispatcher.recoverInterrupted();
  if (recovered > 0) ctx.logger.warn({ recovered }, "dispatches left in flight by the previous run marked interrupted");
  ctx.lifecycle.onStop(() => {
    dispatcher.stop();
    stopReviews();
  });
}
