import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES, CONSOLE_PANELS } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { cronsConfig, type CronsConfig } from "./config.ts";
import { CronJob } from "./entities/cron-job.ts";
import { CronRun } from "./entities/cron-run.ts";
import { migrations } from "./migrations.ts";
import { cronRoutes } from "./http/routes.ts";
import { registerCronServices } from "./services/register.ts";
import { startCrons } from "./services/lifecycle.ts";

/**
 * Muster's own cron jobs (DESIGN §14.4): stored in SQLite, scheduled in each job's time zone,
 * run through the gateway's `agent` method, each fire time run at most once (docs/crons.md).
 */
export const cronsPlugin = definePlugin<CronsConfig>({
  id: "crons",
  version: "1.0.0",
  host: "^1.0.0",
  // Agent ids are checked against the agents plugin's crew capability, and runs are priced and
  // held to budgets by the usage plugin, when they are loaded.
  optionalDependsOn: ["agents", "usage", "stream", "dashboard"],
  paths: ["/api/crons"],
  config: cronsConfig,
  entities: [CronJob, CronRun],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "crons.run.*", description: "A cron run started or finished (the run record: status, output, error)" }),
    contribute(CONSOLE_PANELS, { id: "failed-runs", title: "Failed cron runs", module: fileURLToPath(new URL("./console/failed-runs-panel.ts", import.meta.url)), events: ["crons.run.*"] }),
    contribute(CONSOLE_PAGES, { id: "schedules", title: "Schedules", group: "work", order: 40, module: fileURLToPath(new URL("./console/schedules-page.ts", import.meta.url)), events: ["crons.*"] }),
  ],
  register: registerCronServices,
  routes: cronRoutes,
  onStart: startCrons,
});

export default cronsPlugin;
