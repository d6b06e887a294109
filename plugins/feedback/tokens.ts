import { token } from "@muster/plugin";
import type { FeedbackService } from "./services/feedback-service.ts";

/** Feedback entries. Depend on the `feedback` plugin to use it. */
export const FEEDBACK = token<FeedbackService>("feedback.service");
