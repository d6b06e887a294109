import type { MusterClient } from "./client.ts";
import { claimTask, type ClaimTaskParameters } from "./actions/claim-task.ts";
import { logActivity, type LogActivityParameters } from "./actions/log-activity.ts";
import { requestApproval, type RequestApprovalParameters } from "./actions/request-approval.ts";
import { waitForDecision, type WaitForDecisionParameters } from "./actions/wait-for-decision.ts";

/**
 * The helpers an agent needs most, bound to a client (viem's `client.extend` shape).
 *
 * @example
 * const muster = createMusterClient({ url, agentId: "scout" }).extend(agentActions);
 * await muster.claimTask({ taskId });
 * await muster.logActivity({ action: "started", target: taskId });
 */
export function agentActions(client: MusterClient) {
  return {
    claimTask: (parameters: ClaimTaskParameters) => claimTask(client, parameters),
    logActivity: (parameters: LogActivityParameters) => logActivity(client, parameters),
    requestApproval: (parameters: RequestApprovalParameters) => requestApproval(client, parameters),
    waitForDecision: (parameters: WaitForDecisionParameters) => waitForDecision(client, parameters),
  };
}

export type AgentActions = ReturnType<typeof agentActions>;
