// Capped exponential backoff with jitter: many clients reconnecting to a restarted gateway
// spread out instead of arriving together, and a long outage costs one attempt per cap.

export interface Backoff {
  /** The delay before the next attempt (and counts the attempt). */
  next(): number;
  /** After a connection that proved stable. */
  reset(): void;
  readonly attempts: number;
}

export function createBackoff(initialMs: number, maxMs: number, random: () => number = Math.random): Backoff {
  let attempts = 0;
  return {
    next() {
      const base = Math.min(maxMs, initialMs * 2 ** Math.min(attempts, 30));
      attempts += 1;
      // ±20 % jitter, never above the cap.
      return Math.round(Math.min(maxMs, base * (0.8 + 0.4 * random())));
    },
    reset() {
      attempts = 0;
    },
    get attempts() {
      return attempts;
    },
  };
}
