import { defineHook, hostTokens } from "@muster/plugin";
import { DISPATCH_SERVICE, REVIEW_FLOW } from "./service-tokens.ts";

/**
 * Starts the review flow (task guard, event listeners), recovers the dispatches a previous
 * process left in flight as `interrupted` (never re-sent) and repairs the task reviews it left
 * half-made. In team mode only dispatches no live instance runs, and reviews no live instance
 * is linking to their approval, are recovered, at start and then every 2 s
 * (`instances.everyWhileShared`): an instance killed mid-dispatch is noticed within seconds of
 * its heartbeat stopping. At shutdown, runs still in flight are left for that recovery.
 */
export const startDispatch = defineHook({
  deps: { reviews: REVIEW_FLOW, dispatcher: DISPATCH_SERVICE, logger: hostTokens.logger, instances: hostTokens.instances },
  async run({ reviews, dispatcher, logger, instances }, ctx) {
    const stopReviews = reviews.start();
    const recovered = await dispatcher.recoverInterrupted();
    if (recovered > 0) logger.warn({ recovered }, "dispatches left in flight by the previous run marked interrupted");
    const repaired = await reviews.recover({ startUp: true });
    if (repaired > 0) logger.warn({ repaired }, "task reviews left half-made by the previous run repaired");
    instances.everyWhileShared("dispatch sweep for dead instances", async () => {
      const count = await dispatcher.recoverInterrupted();
      if (count) logger.warn({ interrupted: count }, "dispatches of an instance that stopped answering were marked interrupted");
      const reviewsRepaired = await reviews.recover({ startUp: false });
      if (reviewsRepaired) logger.warn({ repaired: reviewsRepaired }, "task reviews an instance that stopped answering left half-made were repaired");
    });
    ctx.lifecycle.onStop(() => {
      dispatcher.stop();
      stopReviews();
    });
  },
});
