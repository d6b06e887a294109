import type { PluginContext } from "@muster/plugin";
import { DISPATCH_SERVICE, REVIEW_FLOW } from "./register.ts";

/**
 * Starts the review flow (gated action, task guard, event listeners), recovers the
 * dispatches a previous process left in flight as `interrupted` (never re-sent) and repairs
 * the task reviews it left half-made. At shutdown, runs still in flight are left for that
 * recovery.
 */
export async function startDispatch(ctx: PluginContext): Promise<void> {
  const reviews = ctx.resolve(REVIEW_FLOW);
  const stopReviews = reviews.start();
  const dispatcher = ctx.resolve(DISPATCH_SERVICE);
  const recovered = await dispatcher.recoverInterrupted();
  if (recovered > 0) ctx.logger.warn({ recovered }, "dispatches left in flight by the previous run marked interrupted");
  const repaired = await reviews.recover();
  if (repaired > 0) ctx.logger.warn({ repaired }, "task reviews left half-made by the previous run repaired");
  ctx.lifecycle.onStop(() => {
    dispatcher.stop();
    stopReviews();
  });
}
