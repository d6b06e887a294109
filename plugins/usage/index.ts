import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES, CONSOLE_PANELS } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
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
  optionalDependsOn: ["notifications", "stream", "dashboard"],
  paths: ["/api/usage"],
  config: usageConfig,
  entities: [CostEventEntity, UsageRollup, UsageTotals, UsageBudget, UsageBudgetAlert],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "usage.*", description: "A cost event was recorded, or an agent crossed 80% or 100% of its daily budget" }),
    contribute(CONSOLE_PANELS, { id: "usage", title: "Usage today", module: fileURLToPath(new URL("./console/usage-panel.js", import.meta.url)), events: ["usage.*"] }),
    contribute(CONSOLE_PAGES, { id: "usage", title: "Usage", group: "settings", order: 20, module: fileURLToPath(new URL("./console/usage-page.ts", import.meta.url)), events: ["usage.*"] }),
  ],
  register: registerUsageServices,
  routes: usageRoutes,
});

export default usagePlugin;
