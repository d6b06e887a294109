import { defineHook, hostTokens } from "@muster/plugin";
import { GATEWAY_APPROVALS } from "../tokens.ts";
import { KINDS } from "./kinds.ts";

/**
 * Listens to the gateway's approval events and reconciles on every (re)connect. In team mode
 * every instance sees every event and state change of the one gateway link: an event's claim
 * picks one instance, and the reconciliation runs on the primary instance only (two at once
 * would each list the same requests, and one could release a claim the other was admitting).
 */
export const startGatewayApprovals = defineHook({
  deps: { inbox: GATEWAY_APPROVALS, gateway: hostTokens.gateway, events: hostTokens.events, instances: hostTokens.instances },
  run({ inbox, gateway, events, instances }, ctx) {
    const off = [
      ...KINDS.flatMap((spec) => [
        gateway.on(`${spec.kind}.approval.requested`, (event) => void inbox.requested(spec.kind, event)),
        gateway.on(`${spec.kind}.approval.resolved`, (event) => void inbox.resolved(spec.kind, event)),
      ]),
      events.subscribe("approvals.approval.rejected", (event) => void inbox.approvalRejected(event.payload)),
      gateway.onState((status) => {
        if (status.state === "connected" && instances.primary()) void inbox.reconcile();
      }),
    ];
    ctx.lifecycle.onStop(() => {
      for (const unsubscribe of off) unsubscribe();
    });
  },
});
