import { defineRoutes } from "@muster/plugin";
import { BOARDS } from "../tokens.ts";
import { mountBoardEndpoints } from "./board-routes.ts";
import { mountCardEndpoints } from "./card-routes.ts";

/** Boards and cards; the service is resolved once, when the routes mount. */
export const boardRoutes = defineRoutes({
  deps: { boards: BOARDS },
  mount: (router, { boards }) => {
    mountBoardEndpoints(router, boards);
    mountCardEndpoints(router, boards);
  },
});

/** Who makes a change: the calling agent, else the body's `by`, else the human user. */
export const actor = (agentId: string | null, by?: string) => agentId ?? by ?? "user";
