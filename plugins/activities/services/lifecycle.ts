import type { PluginContext } from "@muster/plugin";
import { ACTIVITIES } from "../tokens.ts";
import { logWorkspaceChanges } from "./log-workspace-changes.ts";

/** Logs workspace file changes as activities until shutdown. */
export function startActivities(ctx: PluginContext): void {
  ctx.lifecycle.onStop(logWorkspaceChanges(ctx.events, () => ctx.resolve(ACTIVITIES)));
}
