import { defineRoutes, z } from "@muster/plugin";
import { FEEDBACK } from "../tokens.ts";
import { createFeedbackBody, feedbackEntrySchema, listFeedbackQuery } from "./schemas.ts";

/** Feedback entries; the service is resolved once, when the routes mount. */
export const feedbackRoutes = defineRoutes({
  deps: { feedback: FEEDBACK },
  mount: (router, { feedback }) => {
    router.get(
      "/api/feedback",
      {
        summary: "Feedback entries, newest first (agent and type filters; limit default 50, max 500)",
        query: listFeedbackQuery,
        response: z.object({ ok: z.literal(true), entries: z.array(feedbackEntrySchema) }),
      },
      async ({ query }) => ({ ok: true, entries: await feedback.list(query) }),
    );

    router.post(
      "/api/feedback",
      {
        summary: "Give an agent feedback; it is stored and appended to the agent's learnings file",
        body: createFeedbackBody,
        status: 201,
        response: z.object({ ok: z.literal(true), entry: feedbackEntrySchema }),
      },
      async ({ body }) => ({ ok: true, entry: await feedback.create(body) }),
    );
  },
});
