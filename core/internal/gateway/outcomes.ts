// What ended a connection attempt, and so the client's next state and when it tries again.
// Kept apart from the socket handling so the whole policy reads in one place.
import type { GatewayState } from "../../plugin-api/gateway.ts";
import type { ConnectRefusal } from "./handshake.ts";

export interface Failure {
  state: GatewayState;
  lastError: string;
  /** `backoff`: the capped exponential delay; `slow`: the unauthorized interval; a number: that delay. */
  retry: "backoff" | "slow" | number;
}

/** A `connect` the gateway answered with an error. */
export function failureForRefusal(refusal: ConnectRefusal, deviceId: string | null, maxDelayMs: number): Failure {
  switch (refusal.kind) {
    case "starting":
      // The gateway says when: honour it (bounded), and say `connecting`, not `down`.
      return { state: "connecting", lastError: refusal.reason, retry: Math.max(50, Math.min(refusal.retryAfterMs, maxDelayMs)) };
    case "unauthorized":
      return { state: "unauthorized", lastError: refusal.reason, retry: "slow" };
    case "pairing": {
      // Approval is a human step on the gateway host; the normal backoff lets the connection follow it soon.
      const approve = deviceId ? `; approve it on the gateway host: openclaw devices approve ${deviceId}` : "; set GATEWAY_DEVICE_IDENTITY=on";
      return { state: "unauthorized", lastError: refusal.reason + approve, retry: "backoff" };
    }
    case "protocol":
      return { state: "down", lastError: refusal.reason, retry: "slow" };
    default:
      return { state: "down", lastError: refusal.reason, retry: "backoff" };
  }
}

/** A socket that closed without a known outcome (reference §2.2, §2.12 close codes). */
export function failureFromClose(code: number, reason: string, socketError: string | undefined, beforeOpen: boolean): Failure {
  if (code === 1008 && /token mismatch|unauthorized/i.test(reason)) return { state: "unauthorized", lastError: "the gateway refused the token (AUTH_TOKEN_MISMATCH)", retry: "slow" };
  if (code === 1002) return { state: "down", lastError: `protocol error (close 1002${reason ? `: ${reason}` : ""})`, retry: "slow" };
  if (code === 1013) return { state: "connecting", lastError: "the gateway is starting (close 1013)", retry: 500 };
  if (code === 1012) return { state: "down", lastError: "the gateway is restarting (close 1012 service restart)", retry: "backoff" };
  if (code === 1009) return { state: "down", lastError: "the gateway sent a frame over Muster's size cap (close 1009)", retry: "backoff" };
  if (socketError && beforeOpen) return { state: "down", lastError: socketError, retry: "backoff" };
  return { state: "down", lastError: `connection closed (code ${code}${reason ? `: ${reason}` : ""})`, retry: "backoff" };
}
