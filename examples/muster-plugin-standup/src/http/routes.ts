import { defineRoutes } from "@muster/plugin";
import { standupErrors } from "../errors.ts";
import { STANDUP_NOTES, utcDay } from "../tokens.ts";
import { dayQuery, dayResponse, noteBody, noteResponse } from "./schemas.ts";

/** `/api/standup`: agents post their note of the day, anyone reads a day's notes. */
export const standupRoutes = defineRoutes({
  deps: { notes: STANDUP_NOTES },
  mount(router, { notes }) {
    router.post("/api/standup", { summary: "Post (or replace) your stand-up note of today", body: noteBody, response: noteResponse, status: 201 }, async ({ body, agentId }) => {
      if (!agentId) throw standupErrors.STANDUP_AGENT_REQUIRED();
      return { ok: true, note: await notes.post(agentId, body) };
    });

    router.get("/api/standup", { summary: "The crew's stand-up notes of a day (today by default)", query: dayQuery, response: dayResponse }, async ({ query }) => {
      const day = query.day ?? utcDay();
      return { ok: true, day, notes: await notes.list(day) };
    });
  },
});
