import { definePlugin } from "@muster/plugin";
import { mountDashboardRoutes } from "./http/routes.ts";

/**
 * The web page at `/` for the human who runs the crew: approvals inbox, task board, live
 * activity feed, agent health, vault names and usage. Static ES modules calling the API
 * with the browser session of the one-time login link (docs/dashboard.md).
 */
export const dashboardPlugin = definePlugin({
  id: "dashboard",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/", "/dashboard"],
  routes: mountDashboardRoutes,
});

export default dashboardPlugin;
