import type { FeedbackRecord } from "./services/feedback-service.ts";

/** Events the feedback plugin publishes (public: forwarded to SSE clients). */
export interface FeedbackEvents {
  "feedback.entry.created": FeedbackRecord;
}

declare module "@muster/plugin" {
  interface MusterEvents extends FeedbackEvents {}
}
