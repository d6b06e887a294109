/**
 * `@muster/plugin/testing`: the test kit, for Muster's own suites and for plugin authors (like
 * Backstage's backend-test-utils). Boot a real host with the plugins under test and a temporary
 * home, call it with a client typed from the server's OpenAPI, take the common domain steps
 * (decide an approval) with one helper each, wait on events instead of sleeping, and talk to
 * a protocol-faithful fake OpenClaw gateway. See docs/plugins.md, "Testing a plugin".
 */
export {
  startTestHost,
  withTestHost,
  type TestHost,
  type TestHostOptions,
  type TestableHost,
  type HostFactory,
  type BaseHostOptions,
  type RequestInitJson,
  type JsonResponse,
} from "./test-host.ts";
export {
  decideApproval,
  approve,
  approveAll,
  listApprovals,
  getApproval,
  waitForApproval,
  type Approval,
  type ApprovalSummary,
  type ApprovalDecision,
  type DecideOptions,
  type ApprovalHost,
  type WaitForApprovalOptions,
  type Answer,
  type ApiErrorBody,
} from "./approvals.ts";
export type { OpenApiDocument, OpenApiOperation, OpenApiParameter, JsonSchema } from "./openapi.ts";
export { withField, type Unlisted, type ApiBody, type RouteBody, type OperationAt, type FromRoute, type JsonBody } from "./api-body.ts";
export { waitUntil, sleep, eventRecorder, type WaitOptions, type EventRecorder } from "./wait.ts";
export { TIME_SCALE, scaled, loadTimeScale } from "./time-scale.ts";
// The fake gateway's public names are listed once, by its own module (test/helpers/fake-gateway.ts re-exports it too).
export * from "./fake-gateway/fake-gateway.ts";
