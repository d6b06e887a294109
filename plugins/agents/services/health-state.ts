import type { HealthState } from "../tokens.ts";

const MINUTE = 60_000;

/**
 * The spec's state table: under 2 minutes idle `active`; 2 to 5 `idle`; 5 to 15 `stalled`;
 * 15 to 30 `stuck`; over 30 `idle` again (DESIGN §14.5); `offline` while the gateway is not
 * connected. An agent without any session is `idle`.
 */
export function healthState(idleMs: number | null, gatewayConnected: boolean): HealthState {
  if (!gatewayConnected) return "offline";
  if (idleMs === null) return "idle";
  if (idleMs < 2 * MINUTE) return "active";
  if (idleMs < 5 * MINUTE) return "idle";
  if (idleMs < 15 * MINUTE) return "stalled";
  if (idleMs <= 30 * MINUTE) return "stuck";
  return "idle";
}

/** The response order (DESIGN §14.5): active, stalled, stuck, idle, offline. */
export const STATE_ORDER: Record<HealthState, number> = { active: 0, stalled: 1, stuck: 2, idle: 3, offline: 4 };
