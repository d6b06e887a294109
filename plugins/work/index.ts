import { contribute, definePlugin } from "@muster/plugin";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { Task } from "./entities/task.ts";
import { Sprint } from "./entities/sprint.ts";
import { Epic } from "./entities/epic.ts";
import { Story } from "./entities/story.ts";
import { Project } from "./entities/project.ts";
import { migrations } from "./migrations.ts";
import { mountWorkRoutes } from "./http/routes.ts";
import { registerWorkServices } from "./services/register.ts";

/** Work tracking: tasks, sprints, epics, stories and projects. */
export const workPlugin = definePlugin({
  id: "work",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["stream"],
  paths: ["/api/tasks", "/api/sprints", "/api/epics", "/api/stories", "/api/projects"],
  entities: [Task, Sprint, Epic, Story, Project],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "work.*", description: "A work record (task, sprint, epic, story, project) was created, updated or deleted" }),
  ],
  register: registerWorkServices,
  routes: mountWorkRoutes,
});

export default workPlugin;
