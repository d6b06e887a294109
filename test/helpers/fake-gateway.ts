// The fake OpenClaw gateway lives in the test kit (`@muster/plugin/testing`, split by protocol
// area under core/plugin-api/testing/fake-gateway/), shared with plugin authors.
export {
  FakeGateway,
  FakeGatewayError,
  FAKE_PROTOCOL,
  type FakeGatewayOptions,
  type FakeReply,
  type FakeReplyContext,
  type FakeReplyHook,
  type FakeMethodHandler,
  type FakeConnection,
  type FakeApproval,
  type FakeApprovalKind,
  type ReceivedFrame,
} from "@muster/plugin/testing";
