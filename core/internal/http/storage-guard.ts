// Runs a route handler so that a database locked by another process is waited out off the
// event loop, and storage faults reach the client as coded 503/507 answers, never as a 500
// or a frozen server.
//
// Why re-running a handler after SQLITE_BUSY is safe: the busy error comes from the
// statement that needed the write lock, and that statement changed nothing; when it ran
// inside `sql.transaction()`, better-sqlite3 rolled the whole transaction back. So the
// database is as it was before the attempt, the body was parsed and validated once (before
// this guard), and the next attempt starts from scratch. That holds as long as a handler is
// idempotent up to its first write: it must not publish events, call out, write files or
// commit an earlier, separate write before the write that can meet the lock. Handlers that
// need several writes make them one synchronous `sql.transaction()` (the project's rule for
// atomic changes anyway); events are published after the write, as the stores do.
//
// On PostgreSQL the same holds for 55P03 (a row lock outlived the connection's
// `lock_timeout`), 40001 and 40P01: the statement failed and PostgreSQL rolled back the
// transaction it was in. The waiter there is a short backoff (database-busy.ts).
import type { Logger } from "pino";
import type { WriteLockWaiter } from "../database-busy.ts";
import { storageError, storageFault, type WriteHealth } from "../database-faults.ts";

export interface HandlerRun {
  requestId: string;
  /** Aborted when the client goes away: stop waiting for it (made on first call: most runs never wait). */
  signal(): AbortSignal;
  /** False once the handler has sent anything (a stream): it cannot start again. */
  canRetry(): boolean;
}

/** Runs `handler`, re-running it while the database is locked, within a time budget. */
export type HandlerGuard = <T>(handler: () => T | Promise<T>, run: HandlerRun) => Promise<T>;

export interface StorageGuardDeps {
  waiter: Pick<WriteLockWaiter, "wait">;
  health: WriteHealth;
  /** Total time a request may wait for a locked database before it gets DATABASE_BUSY. */
  busyBudgetMs: number;
  logger: Logger;
}

export function storageGuard(deps: StorageGuardDeps): HandlerGuard {
  return async (handler, run) => {
    const deadline = Date.now() + deps.busyBudgetMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await handler();
      } catch (error) {
        const fault = storageFault(error);
        if (!fault) throw error;
        if (fault === "busy" && run.canRetry()) {
          if (attempt === 1) deps.logger.debug({ requestId: run.requestId }, "database locked by another process; the request waits for the lock");
          if (await deps.waiter.wait(deadline, run.signal())) continue;
          // The client left while waiting: no write failed for good, nobody reads the answer.
          if (run.signal().aborted) throw storageError(fault, error);
        }
        deps.health.failed(fault);
        throw storageError(fault, error);
      }
    }
  };
}
