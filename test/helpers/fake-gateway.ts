// The fake OpenClaw gateway lives in the test kit (`@muster/plugin/testing`, split by protocol
// area under core/plugin-api/testing/fake-gateway/), shared with plugin authors. Its public
// names are listed once, by the kit's module; this helper re-exports that module whole.
export * from "../../core/plugin-api/testing/fake-gateway/fake-gateway.ts";
