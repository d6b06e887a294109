import { defineHook, hostTokens } from "@muster/plugin";
import { DISPATCH_SERVICE, REVIEW_FLOW } from "./service-tokens.ts";

/**
 * Starts the review flow (task guard, event listeners), recovers the dispatches a previous
 * process left in flight as `interrupted` (never re-sent) and repairs the task reviews it left
 * half-made. At shutdown, runs still in flight are left for that recovery.
 */
export const startDispatch = defineHook({
  deps: { reviews: REVIEW_FLOW, dispatcher: DISPATCH_SERVICE, logger: hostTokens.logger },
  async run({ reviews, dispatcher, logger }, ctx) {
    const stopReviews = reviews.start();
    const recovered = await dispatcher.recoverInterrupted();
    if (recovered > 0) logger.warn({ recovered }, "dispatches left in flight by the previous run marked interrupted");
    const repaired = await reviews.recover();
    if (repaired > 0) logger.warn({ repaired }, "task reviews left half-made by the previous run repaired");
    ctx.lifecycle.onStop(() => {
      dispatcher.stop();
      stopReviews();
    });
  },
});
