import { token } from "@muster/plugin";
import type { ActivityService } from "./services/activity-service.ts";

/** The activity log service. Depend on the `activities` plugin to use it. */
export const ACTIVITIES = token<ActivityService>("activities.service");
