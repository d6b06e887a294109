// What a failed SQLite call means for a client, and whether writes are failing right now
// (for /api/health). SQLite reports storage faults as result codes on the thrown error:
// better-sqlite3's SqliteError has `code`, and MikroORM's DriverException copies it.
import { MusterError, hostErrors } from "../plugin-api/errors.ts";
import { causeChain, isLockCode } from "../plugin-api/helpers.ts";

/** `busy`: another connection holds the lock; `full`: no space; `unavailable`: read-only, I/O error, damaged file. */
export type StorageFault = "busy" | "full" | "unavailable";

const FULL = /^SQLITE_FULL$/;
// A full disk can also surface as an I/O error on fsync or the shared-memory file; none of
// these is the client's fault, and none is a 500 either.
const UNAVAILABLE = /^SQLITE_(IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB)(_|$)/;

/**
 * The storage fault behind an error, looking through `cause` chains (a plugin may wrap the
 * driver's error), or null. A plugin's own 4xx is its answer and is left alone.
 */
export function storageFault(error: unknown): StorageFault | null {
  for (const current of causeChain(error)) {
    if (current instanceof MusterError && current.status < 500) return null;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") {
      if (isLockCode(code)) return "busy";
      if (FULL.test(code)) return "full";
      if (UNAVAILABLE.test(code)) return "unavailable";
    }
  }
  return null;
}

/** Seconds a client should wait before retrying after `DATABASE_BUSY`. */
export const BUSY_RETRY_AFTER_S = 1;

/** The coded error a client gets for a storage fault; the driver error stays as the logged cause. */
export function storageError(fault: StorageFault, cause: unknown): MusterError {
  if (fault === "busy") return hostErrors.DATABASE_BUSY({}, { cause, headers: { "Retry-After": String(BUSY_RETRY_AFTER_S) } });
  if (fault === "full") return hostErrors.DATABASE_FULL({}, { cause });
  return hostErrors.DATABASE_UNAVAILABLE({}, { cause });
}

const FAULT_CODES = { busy: "DATABASE_BUSY", full: "DATABASE_FULL", unavailable: "DATABASE_UNAVAILABLE" } as const;

export interface WriteFault {
  /** The error code the failing requests got. */
  code: (typeof FAULT_CODES)[StorageFault];
  /** When writes started failing, and the latest failure (ISO 8601). */
  since: string;
  lastAt: string;
}

export interface WriteHealthDeps {
  /** Rows changed on the connection since it opened (SQLite's `total_changes()`). */
  totalChanges(): number;
  /** Whether the write lock can be taken right now, without waiting. */
  writeLockFree(): boolean;
}

export interface WriteHealth {
  /** Records a write that failed for good (busy past the retry budget, full, unavailable). */
  failed(fault: StorageFault): void;
  /** The unresolved write fault, or null when writes work (as far as anyone has seen). */
  current(): WriteFault | null;
}

/**
 * Remembers the last write failure until a write succeeds again: any row changed on the
 * connection after the failure was recorded proves writes work. A busy fault also ends as
 * soon as the write lock is free, so a lock that came and went does not leave the server
 * "degraded" until the next write. Checking is cheap and never waits on a lock.
 */
export function trackWriteHealth(deps: WriteHealthDeps): WriteHealth {
  let fault: (WriteFault & { kind: StorageFault; changesAt: number }) | null = null;
  return {
    failed(kind) {
      const now = new Date().toISOString();
      const since = fault && fault.kind === kind ? fault.since : now;
      fault = { kind, code: FAULT_CODES[kind], since, lastAt: now, changesAt: deps.totalChanges() };
    },
    current() {
      if (!fault) return null;
      if (deps.totalChanges() !== fault.changesAt || (fault.kind === "busy" && deps.writeLockFree())) {
        fault = null;
        return null;
      }
      return { code: fault.code, since: fault.since, lastAt: fault.lastAt };
    },
  };
}
