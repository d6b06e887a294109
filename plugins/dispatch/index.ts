import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { dispatchConfig, type DispatchConfig } from "./config.ts";
import { BlockedEpisode } from "./entities/blocked-episode.ts";
import { Dispatch } from "./entities/dispatch.ts";
import { TaskReview } from "./entities/task-review.ts";
import { migrations } from "./migrations.ts";
import { dispatchRoutes } from "./http/routes.ts";
import { reviewAction } from "./services/review-action.ts";
import { registerDispatchServices } from "./services/register.ts";
import { startDispatch } from "./services/lifecycle.ts";

/**
 * Dispatch and the review flow (DESIGN §14.6): tasks sent to their assignees through the
 * gateway, a `task.review` approval for every task entering review, and escalation of
 * blocked tasks up the organisation's chain (§14.7). docs/dispatch.md describes it.
 */
export const dispatchPlugin = definePlugin<DispatchConfig>({
  id: "dispatch",
  version: "1.0.0",
  host: "^1.0.0",
  // Tasks come from work, runs go through chat's turn runner, reviews are gated approvals,
  // escalations are notifications, dispatch outcomes are activities.
  dependsOn: ["work", "chat", "approvals", "notifications", "activities"],
  // Assignees are checked, and the escalation chain and agent models come from, the agents
  // plugin's crew capability (without it: the chain from the organisation file, through
  // memory); budgets and cost events from usage.
  optionalDependsOn: ["agents", "memory", "usage", "stream", "dashboard"],
  paths: ["/api/dispatch"],
  config: dispatchConfig,
  entities: [Dispatch, TaskReview, BlockedEpisode],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "dispatch.*", description: "A task was dispatched to an agent or its dispatch changed, or a task under review was escalated" }),
    // The console's dispatch page: send a task to its assignee and follow it to its review approval.
    contribute(CONSOLE_PAGES, { id: "dispatch", title: "Dispatch", group: "work", order: 40, module: fileURLToPath(new URL("./console/dispatch-page.ts", import.meta.url)), events: ["dispatch.*", "work.task.*", "approvals.*"] }),
  ],
  register: registerDispatchServices,
  routes: dispatchRoutes,
  onStart: startDispatch,
  gatedActions: [reviewAction],
});

export default dispatchPlugin;
