import { token } from "./define-service.ts";
import type { GateBackend } from "./gate.ts";

/** Tokens for services the host itself looks up. */
export const hostTokens = {
  /** Provided by the approvals plugin; lets `ctx.gate.request` create approvals. */
  gateBackend: token<GateBackend>("host.gateBackend"),
};
