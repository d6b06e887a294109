import { defineHook, hostTokens } from "@muster/plugin";
import { GATEWAY_APPROVALS } from "../tokens.ts";
import { KINDS } from "./kinds.ts";

/** Listens to the gateway's approval events and reconciles on every (re)connect. */
export const startGatewayApprovals = defineHook({
  deps: { inbox: GATEWAY_APPROVALS, gateway: hostTokens.gateway, events: hostTokens.events },
  run({ inbox, gateway, events }, ctx) {
    const off = [
      ...KINDS.flatMap((spec) => [
        gateway.on(`${spec.kind}.approval.requested`, (event) => void inbox.requested(spec.kind, event)),
        gateway.on(`${spec.kind}.approval.resolved`, (event) => void inbox.resolved(spec.kind, event)),
      ]),
      events.subscribe("approvals.approval.rejected", (event) => void inbox.approvalRejected(event.payload)),
      gateway.onState((status) => {
        if (status.state === "connected") void inbox.reconcile();
      }),
    ];
    ctx.lifecycle.onStop(() => {
      for (const unsubscribe of off) unsubscribe();
    });
  },
});
