import { definePlugin } from "@muster/plugin";
import { dashboardRoutes } from "./http/routes.ts";
import { CONSOLE_PANELS } from "./tokens.ts";

/**
 * The web page at `/` for the human who runs the crew: approvals inbox, task board, live
 * activity feed, and the panels other plugins contribute (agent health, usage, vault names).
 * Static ES modules calling the API with the browser session of the one-time login link
 * (docs/dashboard.md).
 */
export const dashboardPlugin = definePlugin({
  id: "dashboard",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/", "/dashboard"],
  // Plugins add panels to the page here (GET /dashboard/panels).
  extensionPoints: [CONSOLE_PANELS],
  routes: dashboardRoutes,
});

export default dashboardPlugin;
