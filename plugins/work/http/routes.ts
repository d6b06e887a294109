import { defineRoutes, type PluginRouter } from "@muster/plugin";
import { WORK, type WorkTracker } from "../tokens.ts";
import { mountTaskRoutes } from "./task-routes.ts";
import { mountCollection } from "./collection-routes.ts";
import * as s from "./schemas.ts";

/**
 * Tasks, sprints, epics, stories and projects. The service is resolved once, when the
 * routes mount, and the handlers close over it: resolving it through the container on every
 * request showed on the hot paths' profiles (issue 26).
 */
export const workRoutes = defineRoutes({
  deps: { work: WORK },
  mount: (router, { work }) => mountWorkRoutes(router, work),
});

function mountWorkRoutes(router: PluginRouter, work: WorkTracker): void {
  mountTaskRoutes(router, work);
  mountCollection(router, "/api/sprints", "sprint", "sprints", { create: s.createSprintBody, update: s.updateSprintBody, record: s.sprintSchema }, work);
  mountCollection(router, "/api/epics", "epic", "epics", { create: s.createEpicBody, update: s.updateEpicBody, record: s.epicSchema }, work);
  mountCollection(router, "/api/stories", "story", "stories", { create: s.createStoryBody, update: s.updateStoryBody, record: s.storySchema }, work);
  mountCollection(router, "/api/projects", "project", "projects", { create: s.createProjectBody, update: s.updateProjectBody, record: s.projectSchema }, work);
}
