import { fileURLToPath } from "node:url";
import { contribute, definePlugin, hostPoints } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { Task } from "./entities/task.ts";
import { Sprint } from "./entities/sprint.ts";
import { Epic } from "./entities/epic.ts";
import { Story } from "./entities/story.ts";
import { Project } from "./entities/project.ts";
import { migrations } from "./migrations.ts";
import { workRoutes } from "./http/routes.ts";
import { registerWorkServices } from "./services/register.ts";

/** Work tracking: tasks, sprints, epics, stories and projects. */
export const workPlugin = definePlugin({
  id: "work",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["stream", "dashboard"],
  paths: ["/api/tasks", "/api/sprints", "/api/epics", "/api/stories", "/api/projects"],
  entities: [Task, Sprint, Epic, Story, Project],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "work.*", description: "A work record (task, sprint, epic, story, project) was created, updated or deleted" }),
    // The console's work tables: tasks (/console/tasks, a task at /console/tasks/<id>) and the planning records.
    contribute(CONSOLE_PAGES, { id: "tasks", title: "Tasks", group: "work", order: 20, module: fileURLToPath(new URL("./console/tasks-page.ts", import.meta.url)), events: ["work.task.*", "dispatch.*", "approvals.*"] }),
    contribute(CONSOLE_PAGES, { id: "planning", title: "Sprints, epics & projects", group: "work", order: 30, module: fileURLToPath(new URL("./console/planning-page.ts", import.meta.url)), events: ["work.*"] }),
    // MCP tools (docs/mcp.md): reads for every session, writes with the write scope.
    contribute(hostPoints.mcpTools, { name: "tasks_list", title: "List tasks", scope: "read", method: "GET", path: "/api/tasks" }),
    contribute(hostPoints.mcpTools, { name: "tasks_get", title: "Get a task", scope: "read", method: "GET", path: "/api/tasks/{id}" }),
    contribute(hostPoints.mcpTools, { name: "tasks_create", title: "Create a task", scope: "write", method: "POST", path: "/api/tasks" }),
    contribute(hostPoints.mcpTools, { name: "tasks_update", title: "Update a task", scope: "write", method: "PATCH", path: "/api/tasks/{id}" }),
    contribute(hostPoints.mcpTools, { name: "tasks_claim", title: "Claim a task", scope: "write", method: "POST", path: "/api/tasks/{id}/claim" }),
  ],
  register: registerWorkServices,
  routes: workRoutes,
});

export default workPlugin;
