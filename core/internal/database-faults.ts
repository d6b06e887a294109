// What a failed database call means for a client, and whether writes are failing right now
// (for /api/health). SQLite reports storage faults as result codes on the thrown error:
// better-sqlite3's SqliteError has `code`, and MikroORM's DriverException copies it.
// PostgreSQL reports them as SQLSTATEs: `pg`'s DatabaseError has `code` (e.g. "55P03"), and
// MikroORM's DriverException (DeadlockException for 40001/40P01) copies every own property of
// it, `code` included, without a `cause`. A server that cannot be reached or drops the link
// raises plain errors with no SQLSTATE (ECONNREFUSED, "Connection terminated unexpectedly"):
// postgres-link.ts marks those as the database's (DATABASE_LINK_LOST), so that the same
// codes from a plugin's own network call are not taken for the database's.
import { MusterError, hostErrors } from "../plugin-api/errors.ts";
import { causeChain, isLockCode } from "../plugin-api/helpers.ts";

/** `busy`: another connection holds the lock; `full`: no space; `unavailable`: read-only, I/O error, damaged file. */
export type StorageFault = "busy" | "full" | "unavailable";

const FULL = /^SQLITE_FULL$/;
// A full disk can also surface as an I/O error on fsync or the shared-memory file; none of
// these is the client's fault, and none is a 500 either.
const UNAVAILABLE = /^SQLITE_(IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB)(_|$)/;

/** PostgreSQL's 53100 disk_full: a table, index or temporary file could not grow. */
const PG_FULL = /^53100$/;
/**
 * PostgreSQL's SQLSTATEs that mean the server cannot take the request now, none of them the
 * client's fault: class 08 connection exceptions, class 28 (the server refuses Muster's
 * credentials), the rest of class 53 insufficient resources (53300 too_many_connections,
 * 53200 out_of_memory, 53400 configuration_limit_exceeded), class 58 system errors (58030
 * io_error), 57P01-57P04 (shut down by an administrator or a crash, not accepting connections
 * yet, database dropped), 25006 read_only_sql_transaction (a read-only database or a hot
 * standby), 3D000 (the database is gone), XX001/XX002 (damaged data or index).
 */
const PG_UNAVAILABLE = /^(08[0-9A-Z]{3}|28[0-9A-Z]{3}|53[0-9A-Z]{3}|58[0-9A-Z]{3}|57P0[1-4]|25006|3D000|XX00[12])$/;

/**
 * The own property postgres-link.ts sets on an error of the PostgreSQL pool or connection
 * that carries no SQLSTATE: the server could not be reached or the link broke. A string key
 * (not a symbol) because MikroORM's DriverException copies only string-keyed properties.
 */
export const DATABASE_LINK_LOST = "databaseLinkLost";

/** The fault a database error code stands for, on either engine. */
function faultOfCode(code: string): StorageFault | null {
  if (isLockCode(code)) return "busy";
  if (FULL.test(code) || PG_FULL.test(code)) return "full";
  if (UNAVAILABLE.test(code) || PG_UNAVAILABLE.test(code)) return "unavailable";
  return null;
}

/**
 * The storage fault behind an error, looking through `cause` chains (a plugin may wrap the
 * driver's error), or null. A plugin's own 4xx is its answer and is left alone.
 */
export function storageFault(error: unknown): StorageFault | null {
  for (const current of causeChain(error)) {
    if (current instanceof MusterError && current.status < 500) return null;
    const code = (current as { code?: unknown }).code;
    const fault = typeof code === "string" ? faultOfCode(code) : null;
    if (fault) return fault;
    if ((current as unknown as Record<string, unknown>)[DATABASE_LINK_LOST] === true) return "unavailable";
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
