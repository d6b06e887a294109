import type { MusterClient } from "../client.ts";
import type { Operations } from "../generated/operations.ts";
import type { MusterRequestErrorType } from "../errors.ts";
import { agentIdOf } from "./agent-id.ts";

/** Parameters of {@link logActivity}. */
export interface LogActivityParameters {
  /** What happened, e.g. `"summarised"`. */
  action: string;
  /** What it happened to, e.g. a task id or a file path. */
  target?: string;
  details?: string;
  /** Defaults to the client's `agentId`. */
  agentId?: string;
}

/** The stored activity. */
export type LogActivityReturnType = Operations["postActivities"]["response"];

/** `MusterApiError` (`VALIDATION_FAILED` for an empty action or over-long fields) or a transport error. */
export type LogActivityErrorType = MusterRequestErrorType;

/**
 * Records what the agent did in the crew's activity feed (shown live on the dashboard).
 *
 * @example
 * await muster.logActivity({ action: "summarised", target: "inbox/2026-11-23.md" });
 */
export function logActivity(client: MusterClient, parameters: LogActivityParameters): Promise<LogActivityReturnType> {
  const { agentId, ...fields } = parameters;
  return client.postActivities({ body: { agentId: agentIdOf(client, agentId, "logActivity"), ...fields } });
}
