import { defineHook } from "@muster/plugin";
import { STREAM } from "../tokens.ts";

/** Forwards bus events to SSE clients until shutdown. */
export const startStream = defineHook({
  deps: { stream: STREAM },
  run: ({ stream }, ctx) => ctx.lifecycle.onStop(stream.attach(ctx.events)),
});

/** Ends every open stream so the server can close. */
export const stopStream = defineHook({
  deps: { stream: STREAM },
  run: ({ stream }) => stream.close(),
});
