import type { PluginContext, PluginRouter } from "@muster/plugin";
import { WORK, type WorkTracker } from "../tokens.ts";
import { mountTaskRoutes } from "./task-routes.ts";
import { mountCollection } from "./collection-routes.ts";
import * as s from "./schemas.ts";

export function mountWorkRoutes(router: PluginRouter, ctx: PluginContext): void {
  // Resolved on first use (the service may not exist while routes mount), then kept: it is
  // a singleton, and resolving it through the container on every request showed on the
  // hot paths' profiles (issue 26).
  let service: WorkTracker | undefined;
  const work = () => (service ??= ctx.resolve(WORK));
  mountTaskRoutes(router, work);
  mountCollection(router, "/api/sprints", "sprint", "sprints", { create: s.createSprintBody, update: s.updateSprintBody, record: s.sprintSchema }, work);
  mountCollection(router, "/api/epics", "epic", "epics", { create: s.createEpicBody, update: s.updateEpicBody, record: s.epicSchema }, work);
  mountCollection(router, "/api/stories", "story", "stories", { create: s.createStoryBody, update: s.updateStoryBody, record: s.storySchema }, work);
  mountCollection(router, "/api/projects", "project", "projects", { create: s.createProjectBody, update: s.updateProjectBody, record: s.projectSchema }, work);
}
