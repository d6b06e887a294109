import { token } from "@muster/plugin";
import type { ActivityQuery, ActivityRecord, NewActivity } from "./services/activity-service.ts";

export type { ActivityQuery, ActivityRecord, NewActivity };

/** The agent activity log. */
export interface ActivityLog {
  /** Appends an activity and publishes `activities.activity.created` after it is stored. */
  log(input: NewActivity): ActivityRecord;
  /** Like `log`, resolving once the activity is stored (on PostgreSQL `log` stores it just after it returns). */
  logStored(input: NewActivity): Promise<ActivityRecord>;
  /** Recent activities, newest first. */
  list(query: ActivityQuery): Promise<ActivityRecord[]>;
}

/** The activity log service. Depend on the `activities` plugin to use it. */
export const ACTIVITIES = token<ActivityLog>("activities.service");
