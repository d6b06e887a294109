import { defineGatedAction } from "@muster/plugin";
import { REVIEW_ACTION, type ReviewPayload } from "./review-flow.ts";
import { REVIEW_FLOW } from "./service-tokens.ts";

/** `task.review`: approving accepts a task's work (the task moves to done); see ReviewFlow. */
export const reviewAction = defineGatedAction({
  kind: REVIEW_ACTION,
  exemptFromPrefix: "DESIGN §14.6 names the review approval's command task.review; clients match it",
  deps: { reviews: REVIEW_FLOW },
  create: ({ reviews }) => reviews.action(),
});
