import { definePlugin, defineService } from "@muster/plugin";
import { Activity } from "./entities/activity.ts";
import { migrations } from "./migrations.ts";
import { ActivityService } from "./services/activity-service.ts";
import { ACTIVITIES } from "./tokens.ts";
import { mountActivityRoutes } from "./http/routes.ts";
import { logWorkspaceChanges } from "./services/log-workspace-changes.ts";

/** The agent activity log: `GET`/`POST /api/activities` and the `activities.service` other plugins log through. */
export const activitiesPlugin = definePlugin({
  id: "activities",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/activities"],
  entities: [Activity],
  migrations,
  register(ctx) {
    ctx.provide(defineService({ token: ACTIVITIES, deps: {}, create: (_deps, c) => new ActivityService({ db: () => c.db, events: c.events }) }));
  },
  routes: mountActivityRoutes,
  onStart(ctx) {
    ctx.lifecycle.onStop(logWorkspaceChanges(ctx.events, () => ctx.resolve(ACTIVITIES)));
  },
});

export default activitiesPlugin;
