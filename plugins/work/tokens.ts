import { token } from "@muster/plugin";
import type { WorkService } from "./services/work-service.ts";

/** Tasks, sprints, epics, stories and projects (e.g. for importers). Depend on the `work` plugin. */
export const WORK = token<WorkService>("work.service");
