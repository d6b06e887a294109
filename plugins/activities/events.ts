import type { ActivityRecord } from "./services/activity-service.ts";

/** Events the activities plugin publishes (all public: forwarded to SSE clients). */
export interface ActivityEvents {
  "activities.activity.created": ActivityRecord;
}

declare module "@muster/plugin" {
  interface MusterEvents extends ActivityEvents {}
}
