import { defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { ACTIVITIES } from "../../activities/tokens.ts";
import { NOTIFICATIONS } from "../../notifications/tokens.ts";
import { VAULT_SECRETS } from "../../vault/tokens.ts";
import type { ApprovalsConfig } from "../config.ts";
import { APPROVALS } from "../tokens.ts";
import { ApprovalReports } from "./approval-reports.ts";
import { ApprovalService } from "./approval-service.ts";
import { ApprovalStore } from "./approval-store.ts";

/** Provides the approval service and, under `hostTokens.gateBackend`, the gate's backend. */
export function registerApprovalServices(ctx: PluginContext<ApprovalsConfig>): void {
  ctx.provide(
    defineService({
      token: APPROVALS,
      deps: { activities: ACTIVITIES, notifications: NOTIFICATIONS },
      create: ({ activities, notifications }, c) =>
        new ApprovalService({
          db: () => c.db,
          store: new ApprovalStore(() => c.db),
          reports: new ApprovalReports({ events: c.events, activities, notifications, logger: c.logger }),
          gate: c.gate,
          owner: c.host.owner,
          approvers: c.host.approvers,
          limits: { maxPendingPerRequester: ctx.config.maxPendingPerRequester, maxPayloadBytes: ctx.config.maxPayloadBytes },
          logger: c.logger,
          redact: (text) => (c.has(VAULT_SECRETS) ? c.resolve(VAULT_SECRETS).redact(text) : text),
        }),
    }),
  );
  ctx.provide(
    defineService({
      token: hostTokens.gateBackend,
      deps: { approvals: APPROVALS },
      create: ({ approvals }) => ({
        createGatedApproval: async (kind, payload, options) => approvals.requestGated(kind, payload, options),
      }),
    }),
  );
}
