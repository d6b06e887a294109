// A host with dispatch wired to a fake gateway and a workspace holding the agents suites'
// organisation file (odin executive, thor management, loki and freya execution).
import * as assert from "uvu/assert";
import { storedCostEvents } from "../../helpers/database-file.ts";
import { FakeGateway, type FakeGatewayOptions } from "../../helpers/fake-gateway.ts";
import { removeHome, startTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { decideApproval, listApprovals, type ApprovalDecision, type ApprovalSummary } from "@muster/plugin/testing";
import { makeWorkspace, ORG, TOKEN } from "../agents/agents-rig.ts";
import { FAST, gate } from "../chat/chat-helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

/** A promise with its resolve function, to hold a fake reply until the test lets it go. */
export const hold = gate;

export interface DispatchRig {
  gw: FakeGateway;
  h: TestHost;
  close(): Promise<void>;
}

export async function startDispatchRig(options: { gateway?: FakeGatewayOptions; dispatchConfig?: Record<string, unknown> } = {}): Promise<DispatchRig> {
  const gw = await FakeGateway.start({ token: TOKEN, agents: ["main", "odin", "thor", "loki", "freya"].map((id) => ({ id })), tickIntervalMs: 5_000, ...options.gateway });
  const { home, workspace } = makeWorkspace({ "company/org_structure.yaml": ORG });
  const rig: DispatchRig = {
    gw,
    h: await startTestHost({
      home,
      workspace,
      config: { owner: "Daniel", gatewayUrl: gw.url, gatewayToken: TOKEN, gatewayTimings: FAST, pluginConfig: { dispatch: { ...options.dispatchConfig } } },
    }),
    async close() {
      await rig.h.stop();
      await gw.stop();
      removeHome(rig.h.home);
    },
  };
  await waitUntil(async () => (await rig.h.json<ApiBody<"getHealth">>("/api/health")).body?.gateway?.state === "connected", { timeoutMs: 5_000, label: "gateway connected" });
  return rig;
}

export async function createTask(h: TestHost, fields: Record<string, unknown>): Promise<ApiBody<"postTasks">> {
  const res = await h.json<ApiBody<"postTasks">>("/api/tasks", { method: "POST", body: { title: "Write the release notes", ...fields } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** The params of every chat.send the fake received. */
export const sends = (gw: FakeGateway): Array<{ agentId?: string; sessionKey?: string; message: string; idempotencyKey?: string }> => gw.requests("chat.send").map((frame) => frame.params);

export const getTask = async (h: TestHost, id: string) => (await h.json<ApiBody<"getTasksById">>(`/api/tasks/${id}`)).body;
export const dispatch = (h: TestHost, taskId: unknown) => h.json<ApiBody<"postDispatch">>("/api/dispatch", { method: "POST", body: { taskId } });
export const waitForDispatch = (h: TestHost, id: string, status: string, timeoutMs = 5_000) =>
  waitUntil(async () => {
    const d = (await h.json<ApiBody<"getDispatchById">>(`/api/dispatch/${id}`)).body.dispatch;
    return d?.status === status ? d : null;
  }, { timeoutMs, label: `dispatch ${id} ${status}` });

/** The review approvals (pending and decided) of a task. */
export async function reviewApprovals(h: TestHost, taskId: string): Promise<ApprovalSummary[]> {
  return (await listApprovals(h)).filter((a) => a.taskId === taskId && a.command === "task.review");
}

export const decide = (h: TestHost, approvalId: string, status: ApprovalDecision, reason?: string) => decideApproval(h, approvalId, status, { decidedBy: "Daniel", reason });

/** A task's cost events as stored (GET /api/usage only has totals), oldest first. */
export const costEvents = (h: TestHost, agentId: string) => storedCostEvents(h.home, agentId);
