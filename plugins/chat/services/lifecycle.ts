import { defineHook } from "@muster/plugin";
import { CHAT_TURNS, TURN_RUNNER } from "./service-tokens.ts";

/** In team mode, starts sharing the turns with the other instances. At shutdown, aborts the chat turns still running (and waits for their last writes), then fails any other agent turn in flight. */
export const startChat = defineHook({
  deps: { turns: CHAT_TURNS, runner: TURN_RUNNER },
  run: async ({ turns, runner }, ctx) => {
    await turns.share();
    ctx.lifecycle.onStop(async () => {
      await turns.stop();
      runner.stop();
    });
  },
});
