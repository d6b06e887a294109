import { hostErrors, type MusterError } from "./errors.ts";

export interface RateLimitOptions {
  /** Feature name, used in the error message (`chat`). */
  feature: string;
  /** How many calls may run at once. */
  concurrent: number;
  /** How many calls may start within any rolling 60 s window. */
  perMinute: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface RateLimiter {
  /**
   * Takes a slot or throws 429 `RATE_LIMITED` with `Retry-After`. The returned release
   * function is idempotent; call it in `finally` (or use {@link RateLimiter.run}).
   */
  acquire(): () => void;
  /**
   * Runs `fn` holding a slot, releasing it on success, on error, and as soon as `signal`
   * aborts (pass the route's `input.signal` so a client that disconnects frees its slot).
   * The concurrency cap therefore counts callers still waiting for an answer; `fn` should
   * stop its work when `signal` aborts (pass it on to fetch, the gateway client, ...).
   * An already aborted signal takes no slot and rejects with the signal's reason.
   */
  run<T>(fn: () => Promise<T>, options?: { signal?: AbortSignal }): Promise<T>;
  /** Current state, for health pages and tests. */
  state(): { active: number; startedLastMinute: number };
}

/**
 * A limiter whose caps hold across every instance serving the database
 * (`hostTokens.rateLimits`): the crew's limits (the spec's chat, council and dispatch pairs)
 * are about the crew, not about one process. On SQLite it is the in-memory limiter; in team
 * mode (PostgreSQL) its slots are rows, so taking one is a database step: `acquire` is async.
 */
export interface SharedRateLimiter {
  /**
   * Takes a slot or rejects with 429 `RATE_LIMITED` and `Retry-After`. The release is
   * idempotent; its promise says when the slot is free for every instance (callers that only
   * give the slot back need not wait for it).
   */
  acquire(): Promise<() => Promise<void>>;
}

/** Makes {@link SharedRateLimiter}s (`hostTokens.rateLimits`). */
export interface RateLimits {
  create(options: Omit<RateLimitOptions, "now">): SharedRateLimiter;
}

/**
 * In-memory limiter with a concurrency cap and a per-minute cap, as the spec's pairs
 * (`chat` 5 / 20). Memory is bounded: it keeps at most `perMinute` start times.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const now = options.now ?? Date.now;
  const starts: number[] = [];
  let active = 0;

  const prune = (t: number) => {
    while (starts.length > 0 && starts[0]! <= t - 60_000) starts.shift();
  };

  const limiter: RateLimiter = {
    acquire() {
      const t = now();
      prune(t);
      if (active >= options.concurrent) {
        throw rateLimited(options.feature, 1);
      }
      if (starts.length >= options.perMinute) {
        const retryAfter = Math.max(1, Math.ceil((starts[0]! + 60_000 - t) / 1000));
        throw rateLimited(options.feature, retryAfter);
      }
      starts.push(t);
      active += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        active -= 1;
      };
    },
    async run(fn, { signal } = {}) {
      signal?.throwIfAborted();
      const release = limiter.acquire();
      signal?.addEventListener("abort", release, { once: true });
      try {
        return await fn();
      } finally {
        signal?.removeEventListener("abort", release);
        release();
      }
    },
    state() {
      prune(now());
      return { active, startedLastMinute: starts.length };
    },
  };
  return limiter;
}

export function rateLimited(feature: string, retryAfterSeconds: number): MusterError {
  return hostErrors.RATE_LIMITED({ feature, retryAfterSeconds }, {
    headers: { "Retry-After": String(retryAfterSeconds) },
    details: { feature, retryAfterSeconds },
  });
}
