import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PANELS } from "../dashboard/tokens.ts";
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
  optionalDependsOn: ["agents", "usage", "dashboard"],
  paths: ["/api/crons"],
  config: cronsConfig,
  entities: [CronJob, CronRun],
  migrations,
  register: registerCronServices,
  routes: cronRoutes,
  // The home page's failed runs (docs/console/approvals.md).
  contributions: [contribute(CONSOLE_PANELS, { id: "failed-runs", title: "Failed cron runs", module: fileURLToPath(new URL("./console/failed-runs-panel.ts", import.meta.url)), events: ["crons.run.*"] })],
  onStart: startCrons,
});

export default cronsPlugin;
