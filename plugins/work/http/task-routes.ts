import { z, type PluginRouter } from "@muster/plugin";
import type { WorkTracker } from "../tokens.ts";
import { claimTaskBody, createTaskBody, emptyQuery, idParams, listTasksQuery, okSchema, TASK_PAGE, taskSchema, updateTaskBody } from "./schemas.ts";

/** The five task endpoints as the spec gives them (id in the path); the list also filters and pages. */
export function mountTaskRoutes(router: PluginRouter, work: WorkTracker): void {
  router.get(
    "/api/tasks",
    {
      summary: "Tasks, most recently updated first; optional filters and paging",
      description:
        "Filters (exact match, combined with AND): status, priority, assignedTo, projectId, sprintId. " +
        `Page: limit (max ${TASK_PAGE.maxLimit}; without it, every matching task) tasks from offset (default 0). ` +
        "The body stays the spec's bare array; X-Total-Count carries the number of tasks matching the filters.",
      query: listTasksQuery,
      response: z.array(taskSchema),
    },
    async ({ query, setHeader }) => {
      const { limit, offset, ...filter } = query;
      const page = await work.listTasks(filter, { limit: limit ?? null, offset });
      setHeader("X-Total-Count", String(page.total));
      return page.items;
    },
  );
  router.post("/api/tasks", { summary: "Create a task", body: createTaskBody, status: 201, response: taskSchema }, ({ body }) =>
    work.create("task", body),
  );
  router.get("/api/tasks/:id", { summary: "One task", params: idParams, query: emptyQuery, response: taskSchema }, ({ params }) =>
    work.get("task", params.id),
  );
  router.patch("/api/tasks/:id", { summary: "Change some fields of a task", params: idParams, body: updateTaskBody, response: taskSchema }, ({ params, body }) =>
    work.update("task", params.id, body),
  );
  router.post(
    "/api/tasks/:id/claim",
    {
      summary: "Claim a task for an agent: assigns it and moves it to in_progress, atomically",
      description:
        "Only a backlog task that is unassigned or already assigned to this agent can be claimed; of concurrent claims exactly one wins, " +
        "the others get 409 TASK_NOT_CLAIMABLE. Claiming one's own in_progress task again answers the task unchanged, so a retried claim is safe.",
      params: idParams,
      body: claimTaskBody,
      response: taskSchema,
    },
    ({ params, body }) => work.claimTask(params.id, body.agentId),
  );
  router.delete("/api/tasks/:id", { summary: "Delete a task permanently (session token)", params: idParams, query: emptyQuery, response: okSchema }, async ({ params }) => {
    await work.delete("task", params.id);
    return { ok: true };
  });
}
