import type { MusterClient } from "../client.ts";
import type { Operations } from "../generated/operations.ts";
import type { MusterRequestErrorType } from "../errors.ts";
import { agentIdOf } from "./agent-id.ts";

/** Parameters of {@link claimTask}. */
export interface ClaimTaskParameters {
  taskId: string;
  /** Defaults to the client's `agentId`. */
  agentId?: string;
}

/** The task, now assigned to the agent and `in_progress`. */
export type ClaimTaskReturnType = Operations["postTasksClaimById"]["response"];

/** `MusterApiError` with `TASK_NOT_CLAIMABLE` (someone else holds it, or it is not in backlog) or `TASK_NOT_FOUND`, or a transport error. */
export type ClaimTaskErrorType = MusterRequestErrorType;

/**
 * Takes a backlog task for the agent, atomically: of agents claiming at once exactly one gets
 * it; the others get `TASK_NOT_CLAIMABLE`. Claiming one's own task again is a no-op, so a
 * retry after a dropped connection is safe.
 *
 * @example
 * const muster = createMusterClient({ url, agentId: "scout" }).extend(agentActions);
 * const task = await muster.claimTask({ taskId });
 */
export function claimTask(client: MusterClient, parameters: ClaimTaskParameters): Promise<ClaimTaskReturnType> {
  return client.postTasksClaimById({ id: parameters.taskId, body: { agentId: agentIdOf(client, parameters.agentId, "claimTask") } });
}
