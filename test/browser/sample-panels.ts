// Stand-ins for GET /api/agents/health and GET /api/usage, shaped as the spec gives them
// (a connected gateway, agents in every state and one the gateway does not know, a day of usage), with the agents and usage
// plugins' own console panels contributed over them, so the panels can be seen lit up from
// data a test host without a gateway cannot produce. And a third-party panel: its own module,
// refreshed on the events it names.
import { fileURLToPath } from "node:url";
import { contribute, definePlugin, z, type PluginDefinition } from "@muster/plugin";
import { CONSOLE_PANELS } from "../../plugins/dashboard/tokens.ts";
import { builtInPlugins } from "../../plugins/built-in.ts";

export const SAMPLE_AGENT_WITH_MARKUP = "<img src=x>";

const moduleOf = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// One stand-in per panel: a plugin's console modules share one directory.
const sampleHealthPlugin = definePlugin({
  id: "sample-health",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["dashboard"],
  paths: ["/api/agents"],
  contributions: [contribute(CONSOLE_PANELS, { id: "health", title: "Agent health", module: moduleOf("../../plugins/agents/console/health-panel.js") })],
  routes(router) {
    router.get("/api/agents/health", { summary: "sample agent health" }, () => ({
      ok: true,
      gateway: { state: "connected" },
      agents: [
        { id: "writer", state: "active", lastActivityMs: Date.now() - 60_000, idleMinutes: 1, model: "sample-model", sessionCount: 2, registered: true },
        { id: SAMPLE_AGENT_WITH_MARKUP, state: "offline", lastActivityMs: null, idleMinutes: null, model: "sample-model", sessionCount: 0, registered: true },
        // The gateway does not know it: the API says idle, but it cannot run.
        { id: "ghost", state: "idle", lastActivityMs: null, idleMinutes: null, model: null, sessionCount: 0, registered: false },
        { id: "looper", state: "stuck", lastActivityMs: Date.now() - 3_600_000, idleMinutes: 60, model: "sample-model", sessionCount: 1, registered: true },
        { id: "napper", state: "idle", lastActivityMs: Date.now() - 600_000, idleMinutes: 10, model: "sample-model", sessionCount: 1, registered: true },
      ],
    }));
  },
});

const sampleUsagePlugin = definePlugin({
  id: "sample-usage",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["dashboard"],
  paths: ["/api/usage"],
  contributions: [contribute(CONSOLE_PANELS, { id: "usage", title: "Usage today", module: moduleOf("../../plugins/usage/console/usage-panel.js") })],
  routes(router) {
    router.get("/api/usage", { summary: "sample usage" }, () => ({
      ok: true,
      today: { totalInputTokens: 120_400, totalOutputTokens: 18_250, estimatedCostCents: 157, byAgent: { writer: { input: 120_400, output: 18_250, cost: 157 } } },
      allTime: { totalEvents: 42, estimatedCostCents: 1_234 },
    }));
  },
});

/** The stand-ins for agent health and usage. */
export const samplePanelsPlugins: PluginDefinition[] = [sampleHealthPlugin, sampleUsagePlugin];

/** The built-ins less any plugin that serves those routes for real. */
export function builtInsWithoutPanelRoutes(): PluginDefinition[] {
  return builtInPlugins.filter((plugin) => !(plugin.paths ?? []).some((path) => path === "/api/agents" || path.startsWith("/api/agents/") || path === "/api/usage"));
}

/** How often the third-party panel below has drawn; it refreshes on `work.task.*`. */
let notesDrawn = 0;

/** A third-party plugin with a console panel (fixtures/notes-panel.js) that refreshes on task events. */
export const notesPanelPlugin = definePlugin({
  id: "notes-panel",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["dashboard"],
  paths: ["/api/notes-panel"],
  contributions: [contribute(CONSOLE_PANELS, { id: "drawn", title: "Notes <b>panel</b>", module: moduleOf("./fixtures/notes-panel.js"), events: ["work.task.*"] })],
  routes: (router) => router.get("/api/notes-panel", { summary: "counts the panel's draws", query: z.strictObject({}) }, () => ({ drawn: ++notesDrawn })),
});
