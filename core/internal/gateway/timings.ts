// The gateway client's clocks. Defaults follow the reference client (backoff 1 s → 30 s,
// reference §2.12); tests shorten them through the host's `gatewayTimings` override.
export interface GatewayTimings {
  /** How long to wait for `connect.challenge` after the socket opens. */
  challengeTimeoutMs: number;
  /** How long to wait for the `connect` answer (hello-ok). */
  connectTimeoutMs: number;
  /** First reconnect delay after a failure; doubles per failure. */
  backoffInitialMs: number;
  /** Largest reconnect delay. */
  backoffMaxMs: number;
  /** A connection that lasted this long resets the backoff. */
  stableAfterMs: number;
  /** Retry interval after the gateway refused the token or the protocol: slow, never a hot loop. */
  unauthorizedRetryMs: number;
  /**
   * Largest reconnect delay while a gateway that announced a restart (shutdown event, close
   * 1012) comes back, for `restartWindowMs`: it is back within seconds, so the exponential
   * backoff must not make Muster miss that by up to its cap.
   */
  restartRetryMs: number;
  restartWindowMs: number;
  /**
   * WebSocket ping interval and how long a pong may take: a half-open TCP connection (the
   * peer gone without a FIN) is found within their sum instead of two tick intervals.
   */
  pingIntervalMs: number;
  pongTimeoutMs: number;
  /**
   * While the gateway cannot be reached, how often its readiness is looked at
   * (readiness-watch.ts): Muster connects within this of the gateway being back.
   */
  readinessProbeMs: number;
}

export const DEFAULT_GATEWAY_TIMINGS: GatewayTimings = Object.freeze({
  challengeTimeoutMs: 5_000,
  connectTimeoutMs: 10_000,
  backoffInitialMs: 1_000,
  backoffMaxMs: 30_000,
  stableAfterMs: 10_000,
  unauthorizedRetryMs: 60_000,
  restartRetryMs: 1_000,
  restartWindowMs: 120_000,
  pingIntervalMs: 15_000,
  pongTimeoutMs: 10_000,
  readinessProbeMs: 250,
});

/** The operator scopes Muster asks for; none are granted when omitted (reference §2.2). */
export const DEFAULT_GATEWAY_SCOPES = Object.freeze(["operator.read", "operator.write", "operator.admin"]);

/** The protocol version Muster speaks. */
export const GATEWAY_PROTOCOL = 4;
