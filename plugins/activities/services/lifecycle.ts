import { defineHook, hostTokens } from "@muster/plugin";
import { ACTIVITIES } from "../tokens.ts";
import { logWorkspaceChanges } from "./log-workspace-changes.ts";

/** Logs workspace file changes as activities until shutdown. */
export const startActivities = defineHook({
  deps: { activities: ACTIVITIES, events: hostTokens.events },
  run: ({ activities, events }, ctx) => ctx.lifecycle.onStop(logWorkspaceChanges(events, activities)),
});
