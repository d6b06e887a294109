// The built-in plugins, in the order they are listed to the host (the host orders them
// by dependencies; unrelated plugins keep this order), each as a function that loads its
// modules. `muster start` loads them after the server listens, one plugin per turn of the
// event loop, so a health check that comes meanwhile is answered between two (issue 26);
// plugins/built-in.ts loads them all at once for everything else.
import { setImmediate as turnOfTheLoop } from "node:timers/promises";
import type { PluginDefinition } from "@muster/plugin";

export const builtInPluginLoaders: (() => Promise<PluginDefinition>)[] = [
  () => import("./activities/index.ts").then((m) => m.activitiesPlugin),
  () => import("./notifications/index.ts").then((m) => m.notificationsPlugin),
  () => import("./approvals/index.ts").then((m) => m.approvalsPlugin),
  () => import("./work/index.ts").then((m) => m.workPlugin),
  () => import("./memory/index.ts").then((m) => m.memoryPlugin),
  () => import("./vault/index.ts").then((m) => m.vaultPlugin),
  () => import("./stream/index.ts").then((m) => m.streamPlugin),
  () => import("./search/index.ts").then((m) => m.searchPlugin),
  () => import("./feedback/index.ts").then((m) => m.feedbackPlugin),
  () => import("./skills/index.ts").then((m) => m.skillsPlugin),
  () => import("./legacy-board/index.ts").then((m) => m.legacyBoardPlugin),
  () => import("./gateway/index.ts").then((m) => m.gatewayPlugin),
  () => import("./chat/index.ts").then((m) => m.chatPlugin),
  () => import("./council/index.ts").then((m) => m.councilPlugin),
  () => import("./dashboard/index.ts").then((m) => m.dashboardPlugin),
  () => import("./metrics/index.ts").then((m) => m.metricsPlugin),
  () => import("./terminal/index.ts").then((m) => m.terminalPlugin),
  () => import("./git/index.ts").then((m) => m.gitPlugin),
  () => import("./boards/index.ts").then((m) => m.boardsPlugin),
  () => import("./publishing/index.ts").then((m) => m.publishingPlugin),
  () => import("./messenger/index.ts").then((m) => m.messengerPlugin),
  () => import("./agents/index.ts").then((m) => m.agentsPlugin),
  () => import("./usage/index.ts").then((m) => m.usagePlugin),
  () => import("./crons/index.ts").then((m) => m.cronsPlugin),
  () => import("./settings/index.ts").then((m) => m.settingsPlugin),
  () => import("./dispatch/index.ts").then((m) => m.dispatchPlugin),
  () => import("./gateway-approvals/index.ts").then((m) => m.gatewayApprovalsPlugin),
  () => import("./rag/index.ts").then((m) => m.ragPlugin),
];

/** Every built-in plugin, in order, loaded one per turn of the event loop. */
export async function loadBuiltInPlugins(): Promise<PluginDefinition[]> {
  const plugins: PluginDefinition[] = [];
  for (const load of builtInPluginLoaders) {
    plugins.push(await load());
    await turnOfTheLoop();
  }
  return plugins;
}
