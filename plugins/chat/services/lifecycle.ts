import { defineHook } from "@muster/plugin";
import { CHAT_TURNS, TURN_RUNNER } from "./service-tokens.ts";

/** At shutdown, aborts the chat turns still running (and waits for their last writes), then fails any other agent turn in flight. */
export const startChat = defineHook({
  deps: { turns: CHAT_TURNS, runner: TURN_RUNNER },
  run: ({ turns, runner }, ctx) =>
    ctx.lifecycle.onStop(async () => {
      await turns.stop();
      runner.stop();
    }),
});
