import { defineHook, hostTokens } from "@muster/plugin";
import { CONTENT_DRAFTS, OUTBOX } from "../tokens.ts";

/** Interrupted sends become `unknown`, due entries are sent, future ones armed; a publish approval that ends without queuing (rejected, expired, failed execution) releases its draft. */
export const startPublishing = defineHook({
  deps: { drafts: CONTENT_DRAFTS, outbox: OUTBOX, events: hostTokens.events },
  async run({ drafts, outbox, events }, ctx) {
    const unsubscribers = [
      events.subscribe("approvals.approval.rejected", (event) => drafts.approvalEnded(event.payload, "rejected")),
      events.subscribe("approvals.approval.execution_failed", (event) => drafts.approvalEnded(event.payload, "failed")),
    ];
    ctx.lifecycle.onStop(async () => {
      for (const unsubscribe of unsubscribers) unsubscribe();
      await outbox.stop();
    });
    await outbox.start();
  },
});
