import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { APPROVALS } from "../../approvals/tokens.ts";
import { NOTIFICATIONS } from "../../notifications/tokens.ts";
import type { GatewayApprovalsConfig } from "../config.ts";
import { GATEWAY_APPROVALS } from "../tokens.ts";
import { Digest } from "./digest.ts";
import { GatewayApprovalInbox } from "./inbox.ts";
import { RequestStore } from "./request-store.ts";

export function registerGatewayApprovals(ctx: PluginContext<GatewayApprovalsConfig>): void {
  ctx.provide(
    defineService({
      token: GATEWAY_APPROVALS,
      deps: {
        approvals: APPROVALS,
        notifications: NOTIFICATIONS,
        db: hostTokens.db,
        gate: hostTokens.gate,
        gateway: hostTokens.gateway,
        logger: hostTokens.logger,
        config: configToken<GatewayApprovalsConfig>(),
      },
      create: ({ approvals, notifications, db, gate, gateway, logger, config }) =>
        new GatewayApprovalInbox({
          store: new RequestStore(() => db),
          approvals,
          gate,
          gateway,
          digest: new Digest({ notifications, threshold: config.digest.threshold, intervalMs: config.digest.intervalMs, now: Date.now }),
          autoDeny: config.autoDeny,
          logger,
        }),
    }),
  );
}
