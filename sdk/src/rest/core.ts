// `@muster/sdk/client`: the typed REST client, its route table and its errors, without the
// agent and marketplace actions (whose types come from viem). The plugin test kit
// (`@muster/plugin/testing`) builds on this, so a plugin author needs no viem to test.
export { createMusterClient, type MusterClient, type RestActions } from "./client.ts";
export type { MusterClientConfig, CallOptions } from "./transport.ts";
export { operations, type OperationName, type Operations, type RouteTree } from "./generated/operations.ts";
export { MusterApiError, MusterNetworkError, MusterResponseError, MusterTimeoutError, isMusterApiError, type MusterErrorCode } from "./errors.ts";
