import { hostTokens, WORKSPACE_FILE_CHANGED, type PluginContext } from "@muster/plugin";
import type { AgentsConfig } from "../config.ts";
import { defineAgentActions } from "./gated-actions.ts";
import { ORG_FILE } from "./org-file.ts";
import { DIRECTORY, ESCALATION, SESSIONS, STORE } from "./register.ts";

/**
 * Mirrors the organisation file at start and on every change the workspace watcher reports,
 * keeps the sessions snapshot and the gateway's agent list fresh, escalates stuck agents,
 * and declares the two gated actions.
 */
export async function startAgents(ctx: PluginContext<AgentsConfig>): Promise<void> {
  const directory = ctx.resolve(DIRECTORY);
  defineAgentActions(ctx.gate, { gateway: ctx.resolve(hostTokens.gateway), store: ctx.resolve(STORE), directory });
  await directory.sync();
  const publishSync = async () => {
    const result = await directory.sync();
    if (result && result.added.length + result.removed.length + result.updated.length > 0) ctx.events.publish("agents.records.synced", result, { public: true });
  };
  const offWatcher = ctx.events.subscribe(WORKSPACE_FILE_CHANGED, ({ payload: change }) => {
    if (change.path === ORG_FILE) void publishSync().catch((error: unknown) => ctx.logger.warn({ err: error }, "agent records sync failed"));
  });
  const stopSessions = ctx.resolve(SESSIONS).start();
  const stopDirectory = directory.start();
  const stopEscalation = ctx.resolve(ESCALATION).start();
  ctx.lifecycle.onStop(() => {
    offWatcher();
    stopSessions();
    stopDirectory();
    stopEscalation();
  });
}
