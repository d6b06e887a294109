import { defineRoutes } from "@muster/plugin";
import { DISPATCH } from "../tokens.ts";
import { dispatchBody, dispatchListResponse, dispatchParams, dispatchResponse, emptyQuery, listDispatchQuery } from "./schemas.ts";

export const dispatchRoutes = defineRoutes({
  deps: { dispatcher: DISPATCH },
  mount(router, { dispatcher }) {  router.post(
      "/api/dispatch",
      {
        summary: "Send a task to its assignee through the gateway: in_progress now, review when the agent replies",
        description:
          "400 DISPATCH_TASK_UNASSIGNED without an assignee; 404 for an unknown task or agent; 409 DISPATCH_ALREADY_RUNNING while the task is being dispatched, " +
          "409 DISPATCH_TASK_NOT_DISPATCHABLE for a task in review or done, 409 BUDGET_EXCEEDED over the agent's daily budget; 503 GATEWAY_UNAVAILABLE with the task unchanged; " +
          "429 RATE_LIMITED (3 running, 10 per minute). The dispatch runs in the background: GET /api/dispatch/{id} shows its end.",
        body: dispatchBody,
        status: 202,
        response: dispatchResponse,
      },
      async ({ body }) => ({ ok: true as const, dispatch: await dispatcher.dispatch(body.taskId) }),
    );
    router.get(
      "/api/dispatch",
      { summary: "Dispatches, newest first", query: listDispatchQuery, response: dispatchListResponse },
      async ({ query }) => ({ ok: true as const, dispatches: await dispatcher.list(query.limit) }),
    );
    router.get(
      "/api/dispatch/:id",
      { summary: "One dispatch, with the agent's reply (output) or why it failed (error)", params: dispatchParams, query: emptyQuery, response: dispatchResponse },
      async ({ params }) => ({ ok: true as const, dispatch: await dispatcher.get(params.id) }),
    );
  },
});
