import { WORKSPACE_FILE_CHANGED, type EventBus } from "@muster/plugin";
import type { ActivityLog } from "../tokens.ts";

/**
 * Logs one activity per workspace file change (agent `watcher`, action
 * `file_created|file_updated|file_deleted`, target the workspace-relative path), when
 * `logsHere()` (team mode: the primary instance only, so a change is logged once).
 * Returns the unsubscribe function.
 */
export function logWorkspaceChanges(events: EventBus, activities: ActivityLog, logsHere: () => boolean = () => true): () => void {
  return events.subscribe(WORKSPACE_FILE_CHANGED, (event) => {
    if (!logsHere()) return;
    const change = event.payload;
    activities.log({ agentId: "watcher", action: `file_${change.type}`, target: change.path });
  });
}
