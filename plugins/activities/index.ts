import { definePlugin, defineService } from "../../core/plugin-api/index.ts";
import { Activity } from "./entities/activity.ts";
import { migrations } from "./migrations.ts";
import { ActivityService } from "./services/activity-service.ts";
import { ACTIVITIES } from "./tokens.ts";
import { mountActivityRoutes } from "./http/routes.ts";

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
});

export default activitiesPlugin;
