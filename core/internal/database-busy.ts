// Waiting for another process's write lock without blocking the event loop. better-sqlite3
// is synchronous: SQLite's own busy timeout sleeps inside the statement, so the whole
// server stalls while it waits. The connection therefore waits only briefly itself, and
// longer waits happen here, on timers, while other requests are served.
import type BetterSqlite3 from "better-sqlite3";

/**
 * SQLite's busy timeout while serving requests: long enough to ride out another process's
 * momentary commit, short enough that no statement stalls the event loop noticeably.
 */
export const SERVING_BUSY_TIMEOUT_MS = 10;
/** During start-up nothing is served yet, so migrations and start hooks may wait in SQLite. */
export const STARTUP_BUSY_TIMEOUT_MS = 5_000;

const FIRST_PROBE_MS = 5;
const MAX_PROBE_MS = 200;

function setBusyTimeout(sql: BetterSqlite3.Database, ms: number): void {
  sql.pragma(`busy_timeout = ${Math.max(0, Math.trunc(ms))}`);
}

/**
 * Takes and releases the write lock without waiting; false when another connection holds
 * it (or the probe fails otherwise, which proves nothing about the lock).
 */
export function writeLockFree(sql: BetterSqlite3.Database): boolean {
  // Inside one of our own synchronous transactions nothing can be learnt; it cannot happen
  // between event-loop turns, where callers run.
  if (!sql.open || sql.inTransaction) return false;
  const previous = sql.pragma("busy_timeout", { simple: true }) as number;
  setBusyTimeout(sql, 0);
  try {
    sql.exec("BEGIN IMMEDIATE");
    sql.exec("ROLLBACK");
    return true;
  } catch {
    return false;
  } finally {
    setBusyTimeout(sql, previous);
  }
}

/**
 * One shared wait for the write lock. Every request that met SQLITE_BUSY parks here; a
 * single timer probes the lock with growing, jittered delays and wakes them all when it is
 * free, so a hundred waiting requests cost one probe per tick, not a hundred handler runs.
 * While anyone waits, the connection's busy timeout is 0: the lock is known to be taken, so
 * new writes fail at once and join the wait instead of each stalling the loop.
 */
export class WriteLockWaiter {
  private readonly waiters = new Set<(free: boolean) => void>();
  private timer: NodeJS.Timeout | undefined;
  private delayMs = FIRST_PROBE_MS;
  private closed = false;
  private readonly sql: BetterSqlite3.Database;

  constructor(sql: BetterSqlite3.Database) {
    this.sql = sql;
  }

  /** Resolves true once the write lock is free, false at `deadline` (epoch ms) or on abort. */
  wait(deadline: number, signal: AbortSignal): Promise<boolean> {
    const remaining = deadline - Date.now();
    if (remaining <= 0 || signal.aborted || this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (free: boolean) => {
        clearTimeout(expiry);
        signal.removeEventListener("abort", onAbort);
        this.waiters.delete(settle);
        if (this.waiters.size === 0) this.idle();
        resolve(free);
      };
      const onAbort = () => settle(false);
      const expiry = setTimeout(settle, remaining, false);
      expiry.unref();
      signal.addEventListener("abort", onAbort, { once: true });
      if (this.waiters.size === 0) setBusyTimeout(this.sql, 0);
      this.waiters.add(settle);
      this.schedule();
    });
  }

  /** Wakes every waiter with false and stops probing (the connection is about to close). */
  close(): void {
    this.closed = true;
    for (const settle of [...this.waiters]) settle(false);
  }

  private schedule(): void {
    if (this.timer) return;
    const jittered = this.delayMs * (0.5 + Math.random());
    this.timer = setTimeout(() => this.probe(), jittered);
    this.timer.unref();
  }

  private probe(): void {
    this.timer = undefined;
    if (this.waiters.size === 0) return;
    if (writeLockFree(this.sql)) {
      for (const settle of [...this.waiters]) settle(true);
      return;
    }
    this.delayMs = Math.min(this.delayMs * 2, MAX_PROBE_MS);
    this.schedule();
  }

  /** Nobody waits any more: back to the short synchronous wait for the next writes. */
  private idle(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.delayMs = FIRST_PROBE_MS;
    if (!this.closed && this.sql.open) setBusyTimeout(this.sql, SERVING_BUSY_TIMEOUT_MS);
  }
}

/**
 * The wait between attempts on PostgreSQL. There is no one write lock to probe there: a
 * request meets a locked row (55P03 after the connection's `lock_timeout`), a deadlock or a
 * serialization failure, and PostgreSQL itself already waited for the row in its lock queue.
 * So each request just sleeps a short, growing, jittered delay (from {@link FIRST_PROBE_MS}
 * up to {@link MAX_PROBE_MS}, per request) before its next attempt; false once the deadline
 * is reached or the client left, so nothing spins and the busy budget bounds the whole wait.
 */
export function backoffWaiter(): Pick<WriteLockWaiter, "wait" | "close"> {
  // Keyed by the request's abort signal: one per request, dropped with it.
  const delays = new WeakMap<AbortSignal, number>();
  let closed = false;
  return {
    wait(deadline, signal) {
      const remaining = deadline - Date.now();
      if (remaining <= 0 || signal.aborted || closed) return Promise.resolve(false);
      const delayMs = delays.get(signal) ?? FIRST_PROBE_MS;
      delays.set(signal, Math.min(delayMs * 2, MAX_PROBE_MS));
      return new Promise((resolve) => {
        const settle = (retry: boolean) => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve(retry && !closed);
        };
        const onAbort = () => settle(false);
        // Past the deadline there is no attempt left: answer then rather than sleep on.
        const sleepMs = delayMs * (0.5 + Math.random());
        const timer = setTimeout(settle, Math.min(sleepMs, remaining), sleepMs < remaining);
        timer.unref();
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
    close() {
      closed = true;
    },
  };
}
