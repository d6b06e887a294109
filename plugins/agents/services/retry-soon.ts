// A read of the gateway that failed (a timeout under load, a call the team's link holder did not
// take in time) is tried again within seconds. Waiting out the regular interval instead left
// health's `registered` empty, and chat refusing known agents, for a whole minute.

/** The first retry after a failed read; it doubles up to the regular interval. */
export const RETRY_FIRST_MS = 1_000;

/** Schedules a retry after each failure: `firstMs`, doubling up to `maxMs`; a success resets it. */
export class RetrySoon {
  private timer: NodeJS.Timeout | undefined;
  private delayMs: number;
  private readonly firstMs: number;
  private readonly maxMs: number;
  private readonly retry: () => void;

  constructor(options: { firstMs: number; maxMs: number; retry: () => void }) {
    this.firstMs = options.firstMs;
    this.maxMs = Math.max(options.firstMs, options.maxMs);
    this.delayMs = options.firstMs;
    this.retry = options.retry;
  }

  /** After a failed read: one retry is scheduled (a retry already waiting is kept). */
  failed(): void {
    if (this.timer) return;
    const delay = this.delayMs;
    this.delayMs = Math.min(this.maxMs, this.delayMs * 2);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.retry();
    }, delay);
    this.timer.unref();
  }

  /** After a read that worked: no retry waits, and the next failure retries after `firstMs` again. */
  succeeded(): void {
    this.stop();
    this.delayMs = this.firstMs;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
