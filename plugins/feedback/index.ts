import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { FeedbackEntry } from "./entities/feedback-entry.ts";
import { feedbackRoutes } from "./http/routes.ts";
import { migrations } from "./migrations.ts";
import { registerFeedbackServices } from "./services/register.ts";

/** Feedback to agents: `GET`/`POST /api/feedback`, stored and appended to `<agentId>-learnings.md`. */
export const feedbackPlugin = definePlugin({
  id: "feedback",
  version: "1.0.0",
  host: "^1.0.0",
  optionalDependsOn: ["stream", "dashboard"],
  paths: ["/api/feedback"],
  entities: [FeedbackEntry],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "feedback.entry.created", description: "A feedback entry was recorded" }),
    contribute(CONSOLE_PAGES, {
      id: "feedback",
      title: "Feedback",
      group: "knowledge",
      order: 40,
      module: fileURLToPath(new URL("./console/feedback-page.ts", import.meta.url)),
      events: ["feedback.entry.created", "agents.*"],
    }),
  ],
  register: registerFeedbackServices,
  routes: feedbackRoutes,
});

export default feedbackPlugin;
