import { defineHook } from "@muster/plugin";
import { TURN_RUNNER } from "./service-tokens.ts";

/** At shutdown, fails the turns still in flight. */
export const startChat = defineHook({
  deps: { runner: TURN_RUNNER },
  run: ({ runner }, ctx) => ctx.lifecycle.onStop(() => runner.stop()),
});
