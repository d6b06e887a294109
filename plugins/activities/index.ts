import { contribute, definePlugin, hostPoints } from "@muster/plugin";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { Activity } from "./entities/activity.ts";
import { migrations } from "./migrations.ts";
import { activityRoutes } from "./http/routes.ts";
import { registerActivityServices } from "./services/register.ts";
import { startActivities } from "./services/lifecycle.ts";

/** The agent activity log: `GET`/`POST /api/activities` and the `activities.service` other plugins log through. */
export const activitiesPlugin = definePlugin({
  id: "activities",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["stream"],
  paths: ["/api/activities"],
  entities: [Activity],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "activities.activity.created", description: "An activity was logged by an agent or a human" }),
    // MCP tools (docs/mcp.md).
    contribute(hostPoints.mcpTools, { name: "activities_list", title: "Recent activities", scope: "read", method: "GET", path: "/api/activities" }),
    contribute(hostPoints.mcpTools, { name: "activities_log", title: "Log an activity", scope: "write", method: "POST", path: "/api/activities" }),
  ],
  register: registerActivityServices,
  routes: activityRoutes,
  onStart: startActivities,
});

export default activitiesPlugin;
