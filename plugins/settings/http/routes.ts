import { defineRoutes } from "@muster/plugin";
import { SETTINGS } from "../services/register.ts";
import {
  goalResponse,
  goalsResponse,
  idQuery,
  okResponse,
  putSettingBody,
  runResponse,
  runsQuery,
  runsResponse,
  saveGoalBody,
  saveRunBody,
  settingKeyParams,
  settingResponse,
  settingsResponse,
} from "./schemas.ts";

/** Settings and autopilot records; the service is resolved once, when the routes mount. */
export const settingsRoutes = defineRoutes({
  deps: { settings: SETTINGS },
  mount: (router, { settings }) => {
    router.get("/api/settings", { summary: "All settings as one object", response: settingsResponse }, async () => ({ ok: true, settings: await settings.all() }));
    router.get("/api/settings/:key", { summary: "One setting", params: settingKeyParams, response: settingResponse }, async ({ params }) => ({
      ok: true,
      ...(await settings.get(params.key)),
    }));
    router.put(
      "/api/settings/:key",
      {
        summary: "Set a setting: body { value } (any JSON up to 64 KiB); secret-like names are refused (store secrets in the vault)",
        params: settingKeyParams,
        body: putSettingBody,
        response: settingResponse,
      },
      async ({ params, body }) => ({ ok: true, ...(await settings.put(params.key, body.value)) }),
    );
    router.delete("/api/settings/:key", { summary: "Delete a setting", params: settingKeyParams, response: okResponse }, async ({ params }) => {
      await settings.remove(params.key);
      return { ok: true };
    });

    router.get("/api/autopilot/goals", { summary: "Autopilot goals, newest first (records only)", response: goalsResponse }, async () => ({ ok: true, goals: await settings.goals() }));
    router.post(
      "/api/autopilot/goals",
      { summary: "Create a goal, or update the goal with the given id (201 created, 200 updated); priority default high, status default active", body: saveGoalBody, status: 201, response: goalResponse },
      async ({ body, koa }) => {
        const { goal, created } = await settings.saveGoal(body);
        if (!created) koa.status = 200;
        return { ok: true, goal };
      },
    );
    router.delete("/api/autopilot/goals", { summary: "Delete a goal", query: idQuery, response: okResponse }, async ({ query }) => {
      await settings.removeGoal(query.id);
      return { ok: true };
    });

    router.get("/api/autopilot/runs", { summary: "Autopilot runs, newest first (?limit= default 50, max 500)", query: runsQuery, response: runsResponse }, async ({ query }) => ({
      ok: true,
      runs: await settings.runs(query.limit),
    }));
    router.post(
      "/api/autopilot/runs",
      { summary: "Record a run, or update the run with the given id; a change to done or failed notifies", body: saveRunBody, status: 201, response: runResponse },
      async ({ body, koa }) => {
        const { run, created } = await settings.saveRun(body);
        if (!created) koa.status = 200;
        return { ok: true, run };
      },
    );
    router.delete("/api/autopilot/runs", { summary: "Delete a run", query: idQuery, response: okResponse }, async ({ query }) => {
      await settings.removeRun(query.id);
      return { ok: true };
    });
  },
});
