import type { PluginContext } from "@muster/plugin";
import { GATEWAY_APPROVALS } from "../tokens.ts";
import { KINDS } from "./kinds.ts";

/** Listens to the gateway's approval events and reconciles on every (re)connect. */
export async function startGatewayApprovals(ctx: PluginContext): Promise<void> {
  const inbox = ctx.resolve(GATEWAY_APPROVALS);
  inbox.defineActions();
  const off = [
    ...KINDS.flatMap((spec) => [
      ctx.gateway.on(`${spec.kind}.approval.requested`, (event) => void inbox.requested(spec.kind, event)),
      ctx.gateway.on(`${spec.kind}.approval.resolved`, (event) => void inbox.resolved(spec.kind, event)),
    ]),
    ctx.events.subscribe("approvals.approval.rejected", (event) => void inbox.approvalRejected(event.payload)),
    ctx.gateway.onState((status) => {
      if (status.state === "connected") void inbox.reconcile();
    }),
  ];
  ctx.lifecycle.onStop(() => {
    for (const unsubscribe of off) unsubscribe();
  });
}
