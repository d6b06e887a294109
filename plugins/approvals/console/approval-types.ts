// The approval shapes as the API gives them (the SDK's generated types), and how a kind is named.
import type { muster } from "@muster/console";

export type ApprovalList = Awaited<ReturnType<typeof muster.getApprovals>>;
/** A list item: no payload, no execution result. */
export type ApprovalSummary = ApprovalList["pending"][number];
/** One approval as GET /api/approvals/{id} gives it. */
export type Approval = Awaited<ReturnType<typeof muster.getApprovalsById>>["approval"];

/** The gateway's own requests (plugins/gateway-approvals) keep the gateway's names. */
const GATEWAY_KINDS: Record<string, string> = {
  "openclaw.exec": "Gateway exec",
  "openclaw.plugin": "Gateway plugin",
  "openclaw.approval": "Gateway approval",
};

/** The approval's kind (its `command`, the type it was requested with). */
export const kindOf = (approval: ApprovalSummary): string => approval.command ?? "approval";

/** "Gateway exec" for the gateway's exec requests, the kind itself otherwise. */
export const kindLabel = (kind: string): string => GATEWAY_KINDS[kind] ?? kind;

export const fromGateway = (approval: ApprovalSummary): boolean => kindOf(approval) in GATEWAY_KINDS;

/** `/console/approvals/<id>`. */
export const approvalHref = (id: string): string => `/console/approvals/${encodeURIComponent(id)}`;
