// Stand-ins for the routes issue 12 adds (GET /api/agents/health, GET /api/usage), shaped as
// the spec gives them, so the dashboard's panels can be seen lit up before those exist.
import { definePlugin, type PluginDefinition } from "@muster/plugin";
import { builtInPlugins } from "../../plugins/built-in.ts";

export const SAMPLE_AGENT_WITH_MARKUP = "<img src=x>";

export const samplePanelsPlugin = definePlugin({
  id: "sample-panels",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/agents", "/api/usage"],
  routes(router) {
    router.get("/api/agents/health", { summary: "sample agent health" }, () => ({
      ok: true,
      gateway: { state: "connected" },
      agents: [
        { id: "writer", state: "active", lastActivityMs: Date.now() - 60_000, idleMinutes: 1, model: "sample-model", sessionCount: 2 },
        { id: SAMPLE_AGENT_WITH_MARKUP, state: "offline", lastActivityMs: null, idleMinutes: null, model: "sample-model", sessionCount: 0 },
      ],
    }));
    router.get("/api/usage", { summary: "sample usage" }, () => ({
      ok: true,
      today: { totalInputTokens: 120_400, totalOutputTokens: 18_250, estimatedCostCents: 157, byAgent: { writer: { input: 120_400, output: 18_250, cost: 157 } } },
      allTime: { totalEvents: 42, estimatedCostCents: 1_234 },
    }));
  },
});

/** The built-ins less any plugin that serves those routes for real by now. */
export function builtInsWithoutPanelRoutes(): PluginDefinition[] {
  return builtInPlugins.filter((plugin) => !(plugin.paths ?? []).some((path) => path === "/api/agents" || path.startsWith("/api/agents/") || path === "/api/usage"));
}
