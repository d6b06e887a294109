// The REST side of @muster/sdk: a typed method per route, the live stream, agent helpers, typed errors.
export { createMusterClient, type MusterClient, type RestActions } from "./client.ts";
export type { MusterClientConfig, CallOptions } from "./transport.ts";
export { operations, type OperationName, type Operations, type RouteTree } from "./generated/operations.ts";
export { subscribe, type MusterStreamEvent, type SubscribeParameters, type Subscription } from "./sse.ts";
export { agentActions, type AgentActions } from "./agent-actions.ts";
export { claimTask, type ClaimTaskParameters, type ClaimTaskReturnType, type ClaimTaskErrorType } from "./actions/claim-task.ts";
export { logActivity, type LogActivityParameters, type LogActivityReturnType, type LogActivityErrorType } from "./actions/log-activity.ts";
export { requestApproval, type RequestApprovalParameters, type RequestApprovalReturnType, type RequestApprovalErrorType } from "./actions/request-approval.ts";
export { waitForDecision, type WaitForDecisionParameters, type WaitForDecisionReturnType, type WaitForDecisionErrorType } from "./actions/wait-for-decision.ts";
export {
  MusterApiError,
  MusterNetworkError,
  MusterResponseError,
  MusterTimeoutError,
  errorStatuses,
  isMusterApiError,
  type MusterErrorCode,
  type MusterErrorDetail,
  type MusterRequestErrorType,
} from "./errors.ts";
export { installLicensedPack, type InstallLicensedPackParameters, type InstallLicensedPackReturnType, type InstallLicensedPackErrorType } from "./actions/install-licensed-pack.ts";
