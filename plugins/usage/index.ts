import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PANELS } from "../dashboard/tokens.ts";
import { usageConfig, type UsageConfig } from "./config.ts";
import { CostEventEntity } from "./entities/cost-event.ts";
import { UsageBudget, UsageBudgetAlert } from "./entities/usage-budget.ts";
import { UsageRollup, UsageTotals } from "./entities/usage-rollup.ts";
import { migrations } from "./migrations.ts";
import { usageRoutes } from "./http/routes.ts";
import { registerUsageServices } from "./services/register.ts";

/**
 * Cost events priced with one price table, summaries from aggregates kept on insert, and
 * per-agent daily budgets (DESIGN §14.7). Chat, council, crons and dispatch record through
 * the `USAGE` token and ask it before running an agent.
 */
export const usagePlugin = definePlugin<UsageConfig>({
  id: "usage",
  version: "1.0.0",
  host: "^1.0.0",
  // Budget alerts become notifications when the plugin is loaded.
  optionalDependsOn: ["notifications", "dashboard"],
  paths: ["/api/usage"],
  config: usageConfig,
  entities: [CostEventEntity, UsageRollup, UsageTotals, UsageBudget, UsageBudgetAlert],
  migrations,
  contributions: [
    contribute(CONSOLE_PANELS, { id: "usage", title: "Usage today", module: fileURLToPath(new URL("./console/usage-panel.js", import.meta.url)) }),
  ],
  register: registerUsageServices,
  routes: usageRoutes,
});

export default usagePlugin;
