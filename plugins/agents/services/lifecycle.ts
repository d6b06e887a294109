import { defineHook, hostTokens, WORKSPACE_FILE_CHANGED } from "@muster/plugin";
import { ORG_FILE } from "./org-file.ts";
import { DIRECTORY, ESCALATION, SESSIONS } from "./service-tokens.ts";

/**
 * Mirrors the organisation file at start and on every change the workspace watcher reports,
 * keeps the sessions snapshot and the gateway's agent list fresh, and escalates stuck agents.
 */
export const startAgents = defineHook({
  deps: { directory: DIRECTORY, sessions: SESSIONS, escalation: ESCALATION, events: hostTokens.events, logger: hostTokens.logger },
  async run({ directory, sessions, escalation, events, logger }, ctx) {
    await directory.sync({ publish: false });
    const offWatcher = events.subscribe(WORKSPACE_FILE_CHANGED, ({ payload: change }) => {
      if (change.path === ORG_FILE) void directory.sync().catch((error: unknown) => logger.warn({ err: error }, "agent records sync failed"));
    });
    const stopSessions = sessions.start();
    const stopDirectory = await directory.start();
    const stopEscalation = escalation.start();
    ctx.lifecycle.onStop(async () => {
      offWatcher();
      stopSessions();
      stopEscalation();
      await stopDirectory();
    });
  },
});
