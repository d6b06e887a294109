import { fileURLToPath } from "node:url";
import { contribute, definePlugin, hostPoints } from "@muster/plugin";
import { CONSOLE_PAGES, CONSOLE_PANELS } from "../dashboard/tokens.ts";
import { approvalsCommand } from "./cli/command.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { approvalMetrics } from "./metrics.ts";
import { approvalsConfig } from "./config.ts";
import { Approval } from "./entities/approval.ts";
import { migrations } from "./migrations.ts";
import { approvalRoutes } from "./http/routes.ts";
import { registerApprovalServices } from "./services/register.ts";
import { startApprovals } from "./services/lifecycle.ts";

const consoleModule = (file: string) => fileURLToPath(new URL(`./console/${file}`, import.meta.url));

/**
 * The human approval queue (`/api/approvals`) and the backend of the approval gate:
 * `ctx.gate.request(...)` in any plugin creates a pending approval here.
 */
export const approvalsPlugin = definePlugin({
  id: "approvals",
  version: "1.0.0",
  host: "^1.0.0",
  // Hard dependencies: every decision and failed execution must be reported as an activity
  // and a notification; without them the gate stays unavailable (fail closed).
  dependsOn: ["activities", "notifications"],
  // When present, executor errors are redacted of stored secret values before they are reported.
  optionalDependsOn: ["vault", "metrics", "stream", "dashboard"],
  paths: ["/api/approvals"],
  // Caps on what requesters can make the queue hold (docs/approvals.md).
  config: approvalsConfig,
  entities: [Approval],
  migrations,
  register: registerApprovalServices,
  routes: approvalRoutes,
  contributions: [
    approvalMetrics,
    contribute(STREAM_EVENT_FAMILIES, { pattern: "approvals.approval.*", description: "An approval was requested, approved or rejected, or its gated action ran or failed" }),
    // The console's inbox, first in the navigation, and the home page's count (docs/console/approvals.md).
    contribute(CONSOLE_PAGES, { id: "approvals", title: "Approvals", group: "crew", order: 0, module: consoleModule("approvals-page.ts"), events: ["approvals.*"] }),
    contribute(CONSOLE_PANELS, { id: "pending", title: "Pending approvals", module: consoleModule("pending-panel.ts"), events: ["approvals.*"] }),
    // MCP tools (docs/mcp.md).
    contribute(hostPoints.mcpTools, { name: "approvals_list", title: "List approvals", scope: "read", method: "GET", path: "/api/approvals" }),
    contribute(hostPoints.mcpTools, { name: "approvals_get", title: "Get an approval", scope: "read", method: "GET", path: "/api/approvals/{id}" }),
    contribute(hostPoints.mcpTools, { name: "approvals_request", title: "Request a human approval", scope: "write", method: "POST", path: "/api/approvals" }),
  ],
  onStart: startApprovals,
  // `muster approvals`: the inbox in a terminal, through the running server.
  commands: [approvalsCommand],
});

export default approvalsPlugin;
