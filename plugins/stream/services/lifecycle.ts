import type { PluginContext } from "@muster/plugin";
import { STREAM } from "../tokens.ts";

/** Forwards bus events to SSE clients until shutdown. */
export function startStream(ctx: PluginContext): void {
  ctx.lifecycle.onStop(ctx.resolve(STREAM).attach(ctx.events));
}

/** Ends every open stream so the server can close. */
export function stopStream(ctx: PluginContext): void {
  ctx.resolve(STREAM).close();
}
