import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * One approval request the OpenClaw gateway raised, and the Muster approval that stands for it:
 * the one declaration of `gateway_approvals_requests` (migrations.ts creates it). The gateway's
 * id is the primary key, so a repeated event cannot create a second approval.
 */
export const GatewayRequest = defineEntity({
  name: "GatewayRequest",
  tableName: "gateway_approvals_requests",
  properties: {
    /** The gateway's approval id. */
    gatewayId: p.string().primary(),
    /** `exec`, `plugin` or `openclaw` (the gateway's event prefix). */
    kind: p.string(),
    /** The Muster approval; null only between claiming the id and creating the approval. */
    approvalId: p.string().nullable(),
    /** `open` while the gateway may still hold it pending; `closed` once it is settled there. */
    state: p.enum(["open", "closed"]),
    createdAt: p.string(),
  },
  indexes: [
    { name: "gateway_approvals_requests_approval", properties: ["approvalId"] },
    { name: "gateway_approvals_requests_open", properties: ["state", "kind"] },
  ],
});

export type GatewayRequestRow = EntityRow<typeof GatewayRequest>;
