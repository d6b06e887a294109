// A host connected to the fake gateway, and helpers to find the approval standing for a gateway request.
import { startRig, waitForGateway, type Rig } from "../chat/chat-helpers.ts";
import type { TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";

export { waitForGateway, type Rig };

export const startInboxRig = (pluginConfig: Record<string, unknown> = {}): Promise<Rig> =>
  startRig({ host: { config: { pluginConfig: { "gateway-approvals": pluginConfig } } } });

export const EXEC_REQUEST = { command: "touch approved.txt", cwd: "/work/agents/main", agentId: "main", sessionKey: "agent:main:main", host: "gateway", ask: "always" };

/** Every approval (pending and history) whose payload names this gateway id. */
export async function approvalsFor(h: TestHost, gatewayId: string): Promise<any[]> {
  const list = (await h.json("/api/approvals?limit=200&pendingLimit=200")).body;
  const all = [...(list.pending ?? []), ...(list.history ?? [])].filter((a: any) => String(a.command ?? "").startsWith("openclaw."));
  const full = await Promise.all(all.map(async (a: any) => (await h.json(`/api/approvals/${a.id}`)).body.approval));
  return full.filter((a: any) => a.payload?.gatewayId === gatewayId);
}

export const approvalFor = (h: TestHost, gatewayId: string, label = `approval for ${gatewayId}`) =>
  waitUntil(async () => (await approvalsFor(h, gatewayId))[0], { timeoutMs: 5_000, label });

export const decide = (h: TestHost, id: string, status: "approved" | "rejected") =>
  h.json(`/api/approvals/${id}`, { method: "PATCH", body: { status }, session: true });
