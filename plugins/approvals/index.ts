import { contribute, definePlugin, hostPoints } from "@muster/plugin";
import { approvalsCommand } from "./cli/command.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { approvalMetrics } from "./metrics.ts";
import { approvalsConfig } from "./config.ts";
import { Approval } from "./entities/approval.ts";
import { migrations } from "./migrations.ts";
import { approvalRoutes } from "./http/routes.ts";
import { registerApprovalServices } from "./services/register.ts";
import { startApprovals } from "./services/lifecycle.ts";

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
  optionalDependsOn: ["vault", "metrics", "stream"],
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
