// The coded error a call gets while the link is not connected, from the link's status: the
// one client's and the leased link's (whose status may be another instance's) answer alike.
import type { GatewayStatus } from "../../plugin-api/gateway.ts";
import { hostErrors, type MusterError } from "../../plugin-api/errors.ts";

export function notConnectedError(status: GatewayStatus): MusterError {
  if (status.state === "unauthorized") return hostErrors.GATEWAY_UNAUTHORIZED();
  const reason = status.state === "disabled" ? "GATEWAY_URL is off" : `state ${status.state}${status.lastError ? `: ${status.lastError}` : ""}`;
  return hostErrors.GATEWAY_UNAVAILABLE({ reason });
}
