import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { councilConfig, type CouncilConfig } from "./config.ts";
import { CouncilSession } from "./entities/council-session.ts";
import { migrations } from "./migrations.ts";
import { councilRoutes } from "./http/routes.ts";
import { councilDecisionAction } from "./services/decision-action.ts";
import { registerCouncilServices } from "./services/register.ts";
import { startCouncil } from "./services/lifecycle.ts";

/**
 * Council sessions (DESIGN §14.3): agents deliberate through the gateway in rounds, vote on a
 * proposal, and an adopted one waits for a human's ratification in the approval queue.
 */
export const councilPlugin = definePlugin<CouncilConfig>({
  id: "council",
  version: "1.0.0",
  host: "^1.0.0",
  // Agent turns come from chat.
  dependsOn: ["chat"],
  // Members are checked against the agents plugin's crew capability (their roles and models
  // too); the ratification is reported as an activity and a notification; turns are checked
  // against budgets and recorded as cost events; each when loaded.
  optionalDependsOn: ["activities", "agents", "notifications", "usage", "stream", "dashboard"],
  paths: ["/api/council"],
  config: councilConfig,
  entities: [CouncilSession],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "council.session.*", description: "A council session was created, progressed, completed, failed, was cancelled or ratified" }),
    contribute(CONSOLE_PAGES, { id: "councils", title: "Councils", group: "crew", order: 30, module: fileURLToPath(new URL("./console/councils-page.ts", import.meta.url)), events: ["council.session.*", "approvals.approval.*"] }),
  ],
  register: registerCouncilServices,
  routes: councilRoutes,
  onStart: startCouncil,
  gatedActions: [councilDecisionAction],
});

export default councilPlugin;
