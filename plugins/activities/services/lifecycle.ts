import { defineHook, hostTokens } from "@muster/plugin";
import { ACTIVITIES } from "../tokens.ts";
import { logWorkspaceChanges } from "./log-workspace-changes.ts";

/**
 * Logs workspace file changes as activities until shutdown; in team mode only on the
 * deployment's primary instance (every instance watches the shared workspace).
 */
export const startActivities = defineHook({
  deps: { activities: ACTIVITIES, events: hostTokens.events, instances: hostTokens.instances },
  run: ({ activities, events, instances }, ctx) => ctx.lifecycle.onStop(logWorkspaceChanges(events, activities, () => instances.primary())),
});
