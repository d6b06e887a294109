// A host connected to the fake gateway, and helpers to find the approval standing for a gateway request.
import { startRig, waitForGateway, type Rig } from "../chat/chat-helpers.ts";
import type { TestHost } from "../../helpers/start-test-host.ts";
import { decideApproval, getApproval, listApprovals, waitForApproval, type Approval, type ApprovalDecision, type ApprovalSummary } from "@muster/plugin/testing";

export { waitForGateway, type Rig };

export const startInboxRig = (pluginConfig: Record<string, unknown> = {}): Promise<Rig> =>
  startRig({ host: { config: { pluginConfig: { "gateway-approvals": pluginConfig } } } });

export const EXEC_REQUEST = { command: "touch approved.txt", cwd: "/work/agents/main", agentId: "main", sessionKey: "agent:main:main", host: "gateway", ask: "always" };

const fromGateway = (a: ApprovalSummary) => String(a.command ?? "").startsWith("openclaw.");
const forRequest = (gatewayId: string) => (a: Approval) => (a.payload as { gatewayId?: unknown } | null)?.gatewayId === gatewayId;

/** Every approval (pending and history) whose payload names this gateway id. */
export async function approvalsFor(h: TestHost, gatewayId: string): Promise<Approval[]> {
  const full = await Promise.all((await listApprovals(h)).filter(fromGateway).map((a) => getApproval(h, a.id)));
  return full.filter(forRequest(gatewayId));
}

export const approvalFor = (h: TestHost, gatewayId: string, label = `approval for ${gatewayId}`) =>
  waitForApproval(h, forRequest(gatewayId), { where: fromGateway, timeoutMs: 5_000, label });

export const decide = (h: TestHost, id: string, status: ApprovalDecision) => decideApproval(h, id, status);
