import { definePlugin } from "@muster/plugin";
import { FeedbackEntry } from "./entities/feedback-entry.ts";
import { feedbackRoutes } from "./http/routes.ts";
import { migrations } from "./migrations.ts";
import { registerFeedbackServices } from "./services/register.ts";

/** Feedback to agents: `GET`/`POST /api/feedback`, stored and appended to `<agentId>-learnings.md`. */
export const feedbackPlugin = definePlugin({
  id: "feedback",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/feedback"],
  entities: [FeedbackEntry],
  migrations,
  register: registerFeedbackServices,
  routes: feedbackRoutes,
});

export default feedbackPlugin;
