import { definePlugin, defineService } from "@muster/plugin";
import { FeedbackEntry } from "./entities/feedback-entry.ts";
import { mountFeedbackRoutes } from "./http/routes.ts";
import { migrations } from "./migrations.ts";
import { FeedbackService } from "./services/feedback-service.ts";
import { FEEDBACK } from "./tokens.ts";

/** Feedback to agents: `GET`/`POST /api/feedback`, stored and appended to `<agentId>-learnings.md`. */
export const feedbackPlugin = definePlugin({
  id: "feedback",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/feedback"],
  entities: [FeedbackEntry],
  migrations,
  register(ctx) {
    ctx.provide(
      defineService({
        token: FEEDBACK,
        deps: {},
        create: (_deps, c) => new FeedbackService({ db: () => c.db, events: c.events, workspace: c.workspace }),
      }),
    );
  },
  routes: mountFeedbackRoutes,
});

export default feedbackPlugin;
