import type { MusterClient } from "../client.ts";
import type { Operations } from "../generated/operations.ts";
import type { MusterRequestErrorType } from "../errors.ts";
import { agentIdOf } from "./agent-id.ts";

type ApprovalBody = Operations["postApprovals"]["args"]["body"];

/** Parameters of {@link requestApproval}. */
export interface RequestApprovalParameters {
  /** What the human is asked, in one line. */
  title: string;
  /** The kind of request, e.g. `"email.send"`. */
  type: string;
  /** Why, and what happens when approved. */
  context: string;
  taskId?: string;
  /** The exact data the human approves (stored with its SHA-256; at most 256 KiB of JSON). */
  payload?: ApprovalBody["payload"];
  /** After this instant it can no longer be approved. */
  expiresAt?: Date | string;
  /** Defaults to the client's `agentId`. */
  requestedBy?: string;
}

/** The pending approval. */
export type RequestApprovalReturnType = Operations["postApprovals"]["response"]["approval"];

/** `MusterApiError` (`APPROVAL_PAYLOAD_TOO_LARGE`, `APPROVAL_PENDING_LIMIT`, `VALIDATION_FAILED`) or a transport error. */
export type RequestApprovalErrorType = MusterRequestErrorType;

/**
 * Asks a human for an explicit yes. Nothing is decided here: a configured human decides in the
 * dashboard, the CLI or the messenger; wait for it with {@link waitForDecision}.
 *
 * @example
 * const approval = await muster.requestApproval({ title: "Send the weekly report", type: "email.send", context: "To the board list", payload: { to, subject } });
 * const decided = await muster.waitForDecision({ approvalId: approval.id });
 */
export async function requestApproval(client: MusterClient, parameters: RequestApprovalParameters): Promise<RequestApprovalReturnType> {
  const { requestedBy, expiresAt, ...fields } = parameters;
  const body: ApprovalBody = { ...fields, requestedBy: agentIdOf(client, requestedBy, "requestApproval") };
  if (expiresAt !== undefined) body.expiresAt = expiresAt instanceof Date ? expiresAt.toISOString() : expiresAt;
  const { approval } = await client.postApprovals({ body });
  return approval;
}
