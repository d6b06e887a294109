import { defineRoutes } from "@muster/plugin";
import { CRONS } from "../tokens.ts";
import { createCronBody, deleteCronQuery, jobResponse, listResponse, okResponse, patchCronBody, runResponse, runsQuery, runsResponse } from "./schemas.ts";

export const cronRoutes = defineRoutes({
  deps: { crons: CRONS },
  mount(router, { crons }) {
    router.get("/api/crons", { summary: "Muster's cron jobs (nextRun computed in each job's time zone)", response: listResponse }, async () => ({
      ok: true,
      jobs: await crons.list(),
    }));

    router.post(
      "/api/crons",
      {
        summary: "Create a cron job: exactly five cron fields, an IANA time zone (default UTC), a known agent",
        description: "400 CRON_INVALID_EXPRESSION / CRON_UNKNOWN_TIME_ZONE, 404 CRON_AGENT_NOT_FOUND.",
        body: createCronBody,
        status: 201,
        response: jobResponse,
      },
      async ({ body }) => ({ ok: true, job: await crons.create(body) }),
    );

    router.patch(
      "/api/crons",
      {
        summary: "{ id, action: enable|disable|run } or { id, name?, cron?, message? }; run → 202 { ok, job, run } and the run continues in the background",
        description: "run refuses with 409 BUDGET_EXCEEDED (the run is recorded skipped) when the agent spent its daily budget.",
        body: patchCronBody,
        response: jobResponse.or(runResponse),
      },
      async ({ body, koa }) => {
        if (!("action" in body)) return { ok: true, job: await crons.edit(body.id, body) };
        if (body.action === "run") {
          const started = await crons.runNow(body.id);
          koa.status = 202;
          return { ok: true, ...started };
        }
        return { ok: true, job: await crons.setEnabled(body.id, body.action === "enable") };
      },
    );

    router.delete(
      "/api/crons",
      { summary: "Delete a cron job and its run history (session token)", auth: "session", query: deleteCronQuery, response: okResponse },
      async ({ query }) => {
        await crons.remove(query.id);
        return { ok: true };
      },
    );

    router.get(
      "/api/crons/runs",
      { summary: "Run history, newest first (?id= one job, ?limit= default 50, max 500)", query: runsQuery, response: runsResponse },
      async ({ query }) => ({ ok: true, runs: await crons.runs({ jobId: query.id, limit: query.limit }) }),
    );
  },
});
