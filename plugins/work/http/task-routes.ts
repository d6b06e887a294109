import { z, type PluginRouter } from "../../../core/plugin-api/index.ts";
import type { WorkService } from "../services/work-service.ts";
import { createTaskBody, emptyQuery, idParams, okSchema, taskSchema, updateTaskBody } from "./schemas.ts";

/** The five task endpoints exactly as the spec gives them (id in the path). */
export function mountTaskRoutes(router: PluginRouter, work: () => WorkService): void {
  router.get("/api/tasks", { summary: "All tasks, most recently updated first", query: emptyQuery, response: z.array(taskSchema) }, () =>
    work().list("task"),
  );
  router.post("/api/tasks", { summary: "Create a task", body: createTaskBody, status: 201, response: taskSchema }, ({ body }) =>
    work().create("task", body),
  );
  router.get("/api/tasks/:id", { summary: "One task", params: idParams, query: emptyQuery, response: taskSchema }, ({ params }) =>
    work().get("task", params.id),
  );
  router.patch("/api/tasks/:id", { summary: "Change some fields of a task", params: idParams, body: updateTaskBody, response: taskSchema }, ({ params, body }) =>
    work().update("task", params.id, body),
  );
  router.delete("/api/tasks/:id", { summary: "Delete a task permanently (session token)", params: idParams, query: emptyQuery, response: okSchema }, ({ params }) => {
    work().delete("task", params.id);
    return { ok: true };
  });
}
