import { definePlugin, defineService } from "@muster/plugin";
import { Task } from "./entities/task.ts";
import { Sprint } from "./entities/sprint.ts";
import { Epic } from "./entities/epic.ts";
import { Story } from "./entities/story.ts";
import { Project } from "./entities/project.ts";
import { migrations } from "./migrations.ts";
import { WorkService } from "./services/work-service.ts";
import { WORK } from "./tokens.ts";
import { mountWorkRoutes } from "./http/routes.ts";

/** Work tracking: tasks, sprints, epics, stories and projects. */
export const workPlugin = definePlugin({
  id: "work",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/tasks", "/api/sprints", "/api/epics", "/api/stories", "/api/projects"],
  entities: [Task, Sprint, Epic, Story, Project],
  migrations,
  register(ctx) {
    ctx.provide(defineService({ token: WORK, deps: {}, create: (_deps, c) => new WorkService({ db: () => c.db, events: c.events }) }));
  },
  routes: mountWorkRoutes,
});

export default workPlugin;
