import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
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
      deps: {
        activities: ACTIVITIES,
        notifications: NOTIFICATIONS,
        db: hostTokens.db,
        instances: hostTokens.instances,
        events: hostTokens.events,
        gate: hostTokens.gate,
        host: hostTokens.info,
        logger: hostTokens.logger,
        config: configToken<ApprovalsConfig>(),
      },
      // The vault is optional: without it there are no stored secrets to redact from executor errors.
      optionalDeps: { secrets: VAULT_SECRETS },
      create: ({ activities, notifications, db, instances, events, gate, host, logger, config, secrets }) =>
        new ApprovalService({
          store: new ApprovalStore(() => db, () => instances.id),
          instances,
          reports: new ApprovalReports({ events, activities, notifications, logger }),
          gate,
          // Read when a request needs it: the host resolves the owner on first read (after listening).
          get owner() {
            return host.owner;
          },
          approvers: host.approvers,
          limits: { maxPendingPerRequester: config.maxPendingPerRequester, maxPayloadBytes: config.maxPayloadBytes, executionTimeoutMs: config.executionTimeoutMs },
          logger,
          redact: (text) => (secrets ? secrets.redact(text) : text),
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
