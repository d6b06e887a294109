import { definePlugin } from "@muster/plugin";
import { gatewayApprovalsConfig } from "./config.ts";
import { GatewayRequest } from "./entities/gateway-request.ts";
import { migrations } from "./migrations.ts";
import { registerGatewayApprovals } from "./services/register.ts";
import { startGatewayApprovals } from "./services/lifecycle.ts";
import { gatewayApprovalActions } from "./services/gated-actions.ts";

/**
 * One approval inbox: every approval request the OpenClaw gateway raises (exec, plugin,
 * system-agent) becomes a Muster approval; deciding it in Muster settles it in the gateway,
 * and a request settled there first is closed here (docs/approvals.md, "One inbox").
 */
export const gatewayApprovalsPlugin = definePlugin({
  id: "gateway-approvals",
  version: "1.0.0",
  host: "^1.0.0",
  // The approval queue holds the requests; notifications carry the digest.
  dependsOn: ["approvals", "notifications"],
  // Auto-deny rules and the digest threshold.
  config: gatewayApprovalsConfig,
  entities: [GatewayRequest],
  migrations,
  register: registerGatewayApprovals,
  // Approving one allows the request once in the gateway; kinds keep the gateway's names.
  gatedActions: gatewayApprovalActions,
  onStart: startGatewayApprovals,
});

export default gatewayApprovalsPlugin;
