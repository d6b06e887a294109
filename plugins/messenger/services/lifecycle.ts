import type { PluginContext } from "@muster/plugin";
import { APPROVAL_NOTICES } from "../tokens.ts";

/** New approvals go to the chat; the subscription and pending retries end at stop. */
export function startMessenger(ctx: PluginContext): void {
  const notices = ctx.resolve(APPROVAL_NOTICES);
  const unsubscribe = ctx.events.subscribe("approvals.approval.created", (event) => notices.notify(event.payload));
  ctx.lifecycle.onStop(async () => {
    unsubscribe();
    await notices.stop();
  });
}
