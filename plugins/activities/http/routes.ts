import { defineRoutes, z } from "@muster/plugin";
import { ACTIVITIES } from "../tokens.ts";
import { activitySchema, createActivityBody, listActivitiesQuery } from "./schemas.ts";

export const activityRoutes = defineRoutes({
  deps: { activities: ACTIVITIES },
  mount(router, { activities }) {
    router.get(
      "/api/activities",
      { summary: "Recent activities, newest first (limit default 100, max 1000)", query: listActivitiesQuery, response: z.array(activitySchema) },
      ({ query }) => activities.list(query),
    );

    router.post(
      "/api/activities",
      { summary: "Log an activity", body: createActivityBody, status: 201, response: activitySchema },
      ({ body }) => activities.logStored(body),
    );
  },
});
