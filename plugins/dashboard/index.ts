import { definePlugin } from "@muster/plugin";
import { dashboardRoutes } from "./http/routes.ts";
import { CONSOLE_PAGES, CONSOLE_PANELS } from "./tokens.ts";

/**
 * The console: the web page at `/` for the human who runs the crew, and at `/console/<page>`
 * every page a plugin contributes. A frame (navigation, sign-in and live state), the home page
 * (contributed attention panels beside the live feed), and a kit the pages are written with
 * (Preact + htm, the SDK's typed client, served without a build step; docs/console.md).
 */
export const dashboardPlugin = definePlugin({
  id: "dashboard",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/", "/dashboard", "/console"],
  // Plugins add home-page panels and whole pages here (GET /dashboard/panels, GET /dashboard/pages).
  extensionPoints: [CONSOLE_PANELS, CONSOLE_PAGES],
  routes: dashboardRoutes,
});

export default dashboardPlugin;
