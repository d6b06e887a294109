import { WORKSPACE_FILE_CHANGED, type PluginContext } from "@muster/plugin";
import { SEARCH } from "../tokens.ts";

/** Keeps the index current from the watcher's events and loads it in the background. */
export function startSearch(ctx: PluginContext): void {
  const index = ctx.resolve(SEARCH);
  const unsubscribe = ctx.events.subscribe(WORKSPACE_FILE_CHANGED, (event) => index.fileChanged(event.payload));
  ctx.lifecycle.onStop(unsubscribe);
  // Not awaited: the server starts listening at once; searches answer from what is indexed so far.
  index.start();
}

/** Saves the index at shutdown. */
export function stopSearch(ctx: PluginContext): Promise<void> {
  return ctx.resolve(SEARCH).stop();
}
