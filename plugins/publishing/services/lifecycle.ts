import type { PluginContext } from "@muster/plugin";
import { CONTENT_DRAFTS, OUTBOX } from "../tokens.ts";

/** Interrupted sends become `unknown`, due entries are sent, future ones armed; a rejected publish approval rejects its draft. */
export async function startPublishing(ctx: PluginContext): Promise<void> {
  const drafts = ctx.resolve(CONTENT_DRAFTS);
  const unsubscribe = ctx.events.subscribe("approvals.approval.rejected", (event) => drafts.approvalRejected(event.payload));
  const outbox = ctx.resolve(OUTBOX);
  ctx.lifecycle.onStop(async () => {
    unsubscribe();
    await outbox.stop();
  });
  await outbox.start();
}
