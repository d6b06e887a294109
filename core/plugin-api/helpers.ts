// Small helpers plugins and the host share, so each exists once.
import { createHash, timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * The first `max` UTF-16 units of `text`, cut on a code point boundary so a 4-byte
 * character is never split into a lone surrogate.
 *
 * @example clip("a😀", 2) // "a"
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * Whether a value contains itself (YAML aliases can build such data, which cannot be
 * serialised). Walks arrays, Maps and plain objects.
 */
export function isCircular(value: unknown, ancestors = new Set<object>()): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (ancestors.has(value)) return true;
  ancestors.add(value);
  const children = Array.isArray(value) ? value : value instanceof Map ? [...value.values()] : Object.values(value);
  const found = children.some((child) => isCircular(child, ancestors));
  ancestors.delete(value);
  return found;
}

/**
 * Compares a secret with a candidate in constant time. Both are hashed first, so neither
 * their contents nor their lengths show in the timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/**
 * Whether a database error code means another connection holds a lock that a later attempt
 * can get. SQLite: SQLITE_BUSY with its extended codes (_SNAPSHOT, _RECOVERY, _TIMEOUT) and
 * SQLITE_LOCKED (_SHAREDCACHE, _VTAB). PostgreSQL (SQLSTATE): 55P03 lock_not_available (a
 * `lock_timeout` or `NOWAIT`), 40001 serialization_failure and 40P01 deadlock_detected (the
 * transaction was rolled back; running it again is PostgreSQL's documented answer).
 */
export function isLockCode(code: string): boolean {
  return /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code) || code === "55P03" || code === "40001" || code === "40P01";
}

/** An error and the errors in its `cause` chain, outermost first; at most 8 (a chain may loop). */
export function* causeChain(error: unknown): Generator<Error> {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth++) yield current;
}

/** A lock code on an error or its causes. */
function isLockError(error: unknown): boolean {
  for (const current of causeChain(error)) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && isLockCode(code)) return true;
  }
  return false;
}

/**
 * Runs one write, re-running only it while another connection holds SQLite's write lock
 * (or, on PostgreSQL, the row it needs, or the write met a deadlock: {@link isLockCode})
 * (growing delays, up to `maxWaitMs`), then rethrows. For a write that follows an earlier,
 * committed write or side effect of the same request: the storage guard would re-run the
 * whole handler, repeating or misreporting what came before. The write must change nothing
 * when it fails (one statement, or one synchronous transaction).
 *
 * @example await retryWhileLocked(() => store.finishExecution(id, outcome));
 */
export async function retryWhileLocked<T>(write: () => T | Promise<T>, maxWaitMs = 60_000): Promise<T> {
  for (let delayMs = 5, waitedMs = 0; ; waitedMs += delayMs, delayMs = Math.min(delayMs * 2, 200)) {
    try {
      return await write();
    } catch (error) {
      if (!isLockError(error) || waitedMs >= maxWaitMs) throw error;
      await sleep(delayMs);
    }
  }
}
