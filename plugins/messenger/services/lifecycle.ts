import { defineHook, hostTokens } from "@muster/plugin";
import { APPROVAL_NOTICES } from "../tokens.ts";

/** New approvals go to the chat; the subscription and pending retries end at stop. */
export const startMessenger = defineHook({
  deps: { notices: APPROVAL_NOTICES, events: hostTokens.events },
  run({ notices, events }, ctx) {
    const unsubscribe = events.subscribe("approvals.approval.created", (event) => notices.notify(event.payload));
    ctx.lifecycle.onStop(async () => {
      unsubscribe();
      await notices.stop();
    });
  },
});
