import { defineRoutes } from "@muster/plugin";
import { GATEWAY_PROXY } from "../tokens.ts";
import { cronsResponse, emptyQuery, sessionsResponse } from "./schemas.ts";

const ERRORS = "503 GATEWAY_UNAVAILABLE / GATEWAY_UNAUTHORIZED when not connected, 502 GATEWAY_ERROR when the gateway refuses (its code and message in details), 504 GATEWAY_TIMEOUT.";

/** The gateway's sessions and cron jobs, read through the proxy resolved when the routes mount. */
export const gatewayRoutes = defineRoutes({
  deps: { proxy: GATEWAY_PROXY },
  mount: (router, { proxy }) => {
    router.get(
      "/api/gateway/sessions",
      {
        summary: "The gateway's sessions (sessions.list, every page): key, agentId, lastActivity (epoch ms), model",
        description: ERRORS,
        query: emptyQuery,
        response: sessionsResponse,
      },
      async () => ({ ok: true, ...(await proxy.sessions()) }),
    );

    router.get(
      "/api/gateway/crons",
      {
        summary: "The gateway's own cron jobs (cron.list, disabled included) as it returns them, with id, name, agentId, cron, timezone, enabled, nextRun, lastRun added",
        description: `Read-only; Muster's own jobs are at /api/crons. ${ERRORS}`,
        query: emptyQuery,
        response: cronsResponse,
      },
      async () => ({ ok: true, ...(await proxy.crons()) }),
    );
  },
});
