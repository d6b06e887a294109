import { token, type GatedAction } from "@muster/plugin";
import type { ApprovalEventPayload } from "../approvals/events.ts";
import type { StoredPayload } from "./services/inbox.ts";
import type { KindSpec } from "./services/kinds.ts";

/** The one approval inbox: the OpenClaw gateway's approval requests as Muster approvals. */
export interface GatewayApprovals {
  /** The gated action of a kind (`openclaw.exec`, `openclaw.plugin`, `openclaw.approval`): approving allows the request once in the gateway. */
  gatedAction(spec: KindSpec): GatedAction<StoredPayload>;
  /** A `<kind>.approval.requested` event: becomes one approval per gateway id. */
  requested(kind: string, event: unknown): Promise<void>;
  /** A `<kind>.approval.resolved` event: closes the approval with the gateway's outcome. */
  resolved(kind: string, event: unknown): Promise<void>;
  /** A rejected Muster approval: denied in the gateway. */
  approvalRejected(approval: ApprovalEventPayload): Promise<void>;
  /** On (re)connect: lists the gateway's pending requests and reconciles both ways. */
  reconcile(): Promise<void>;
}

export const GATEWAY_APPROVALS = token<GatewayApprovals>("gateway-approvals.inbox");
