import type { PluginContext } from "@muster/plugin";
import { CONTENT_DRAFTS, OUTBOX } from "../tokens.ts";

/** Interrupted sends become `unknown`, due entries are sent, future ones armed; a publish approval that ends without queuing (rejected, expired, failed execution) releases its draft. */
export async function startPublishing(ctx: PluginContext): Promise<void> {
  const drafts = ctx.resolve(CONTENT_DRAFTS);
  const unsubscribers = [
    ctx.events.subscribe("approvals.approval.rejected", (event) => drafts.approvalEnded(event.payload, "rejected")),
    ctx.events.subscribe("approvals.approval.execution_failed", (event) => drafts.approvalEnded(event.payload, "failed")),
  ];
  const outbox = ctx.resolve(OUTBOX);
  ctx.lifecycle.onStop(async () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
    await outbox.stop();
  });
  await outbox.start();
}
