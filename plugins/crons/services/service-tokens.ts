// The crons plugin's own parts, for its hooks; other plugins get `CRONS`.
import { token } from "@muster/plugin";
import type { CronRunner } from "./cron-runner.ts";
import type { CronScheduler } from "./cron-scheduler.ts";
import type { CronStore } from "./cron-store.ts";

/** The concrete parts, for this plugin's lifecycle (rebuild at start, stop timers). */
export interface CronParts {
  store: CronStore;
  runner: CronRunner;
  scheduler: CronScheduler;
}
export const CRON_PARTS = token<CronParts>("crons.parts");
