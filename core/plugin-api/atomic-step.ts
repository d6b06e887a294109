import type BetterSqlite3 from "better-sqlite3";
import type { Database } from "./context.ts";

/**
 * The store kit's multi-statement atomic step, on every engine (issue 25): a store writes its
 * statements once, as a generator, and `atomically` runs them as ONE transaction.
 *
 * Why a generator and not `em.transactional(async …)`: on SQLite, MikroORM and every raw
 * statement share one connection, so a transaction spanning awaits would take in other
 * requests' statements (and their failures would roll ours back). The generator cannot await
 * anything, so on SQLite the kit drives it synchronously inside better-sqlite3's
 * `transaction()`: nothing can interleave, exactly as the stores' synchronous transactions did,
 * and a hot path keeps its statements prepared once. On PostgreSQL every transaction has a
 * pooled connection of its own, so there the kit drives the same generator asynchronously
 * inside `connection.transactional()`, awaiting each statement.
 *
 * @example
 * const started = await atomically(db(), function* (tx) {
 *   const claim = yield* tx.run(`UPDATE crons_jobs SET "lastFireAt" = ? WHERE id = ? AND ("lastFireAt" IS NULL OR "lastFireAt" < ?)`, [at, id, at]);
 *   if (claim.changes !== 1) return false; // nothing written: the transaction commits empty
 *   yield* tx.run(`INSERT INTO crons_runs (id, "jobId") VALUES (?, ?)`, [runId, id]);
 *   return true;
 * });
 *
 * The SQL must read the same on both engines: `?` placeholders, camelCase names in double
 * quotes (PostgreSQL folds unquoted names to lower case; SQLite reads quoted ones alike),
 * `ON CONFLICT … DO NOTHING`/`RETURNING` (standard on both). Boolean parameters may be given
 * as booleans (SQLite gets 1/0); rows come back as the driver reads them (a boolean column is
 * 0/1 on SQLite, a boolean on PostgreSQL). Code between the statements must be synchronous;
 * what it throws rolls the whole step back.
 */
export interface AtomicTx {
  /** A write; how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): AtomicStatementStep<{ changes: number }>;
  /** The first row, or undefined. */
  get<T>(sql: string, params?: readonly unknown[]): AtomicStatementStep<T | undefined>;
  /** Every row (also a write's `RETURNING` rows). */
  all<T>(sql: string, params?: readonly unknown[]): AtomicStatementStep<T[]>;
  /**
   * Serialises the steps that name the same `key` until this one commits: for a count or an
   * "is there one already" check that a concurrent step could pass too (READ COMMITTED sees
   * no row the other has not committed). On PostgreSQL a transaction-scoped advisory lock on
   * the key's hash (a collision only makes two keys wait for each other); on SQLite nothing,
   * as the whole step already runs alone on the connection.
   */
  lock(key: string): AtomicStatementStep<void>;
}

/** One statement, as the driver of an atomic step receives it. */
export interface AtomicStatement {
  sql: string;
  params: readonly unknown[];
  method: "run" | "get" | "all" | "lock";
}

/** A statement's step: `yield*` it inside the body for its (typed) result. */
export type AtomicStatementStep<T> = Generator<AtomicStatement, T, unknown>;

/** The body of an atomic step: yields its statements, returns the step's result. */
export type AtomicBody<R> = (tx: AtomicTx) => Generator<AtomicStatement, R, unknown>;

function statement<T>(method: AtomicStatement["method"]) {
  return function* (sql: string, params: readonly unknown[] = []): AtomicStatementStep<T> {
    return (yield { sql, params, method }) as T;
  };
}

const LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtext(?))";

const tx: AtomicTx = {
  run: statement("run"),
  get: statement("get"),
  all: statement("all"),
  *lock(key) {
    yield { sql: LOCK_SQL, params: [key], method: "lock" };
  },
};

/** One better-sqlite3 transaction wrapper per connection, running the function it is given (building one costs ~20 µs). */
const transactionBySql = new WeakMap<BetterSqlite3.Database, (steps: () => unknown) => unknown>();

/** Prepared once per connection and SQL text: the cron claim is a hot path. */
const preparedBySql = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

/** Parameters as better-sqlite3 binds them: it binds no booleans (1/0 instead). */
export function sqliteParams(params: readonly unknown[]): readonly unknown[] {
  return params.some((p) => typeof p === "boolean") ? params.map((p) => (typeof p === "boolean" ? Number(p) : p)) : params;
}

function runOnSqlite(sql: BetterSqlite3.Database, s: AtomicStatement): unknown {
  if (s.method === "lock") return undefined;
  const cache = preparedBySql.get(sql) ?? preparedBySql.set(sql, new Map()).get(sql)!;
  let stmt = cache.get(s.sql);
  if (!stmt) cache.set(s.sql, (stmt = sql.prepare(s.sql)));
  const params = sqliteParams(s.params);
  if (s.method === "run") return { changes: stmt.run(...params).changes };
  return s.method === "get" ? stmt.get(...params) : stmt.all(...params);
}

/** How a step is committed (see {@link atomically}). */
export interface AtomicOptions {
  /**
   * On SQLite, let the step share its commit with the other grouped steps of the same turn
   * of the event loop (a group commit). For independent writes made at a high rate, such as a
   * create: on SQLite a commit's cost is mostly per transaction (the WAL frames of the pages
   * it touched and, every ~1,000 pages, a checkpoint), so N creates in one commit cost a
   * fraction of N commits (`npm run bench:commit`). The step then runs at the end of the
   * turn, not before `atomically` returns, in a savepoint of the group's transaction, and its
   * result comes once that transaction has committed: nothing of it is seen by anyone before
   * then, and nothing of it is kept if the commit fails. Its own refusal (a constraint, an
   * error its body throws) fails it alone; a storage fault (busy, full, I/O) fails every step
   * of the group with that error. A step may run a second time, alone, if the group's commit
   * itself refuses (a deferred constraint): its body must not depend on having run once. On
   * PostgreSQL, which commits concurrent transactions together itself, the option changes
   * nothing.
   */
  grouped?: boolean;
}

/**
 * Runs `body` as one transaction: all its statements commit together, or none does (a thrown
 * error rolls back and rejects). On SQLite it runs synchronously before this returns, unless
 * `options.grouped` (see {@link AtomicOptions}).
 */
export function atomically<R>(db: Database, body: AtomicBody<R>, options: AtomicOptions = {}): Promise<R> {
  if (db.engine !== "postgresql") {
    if (options.grouped) return joinGroup(db.sql, body);
    try {
      return Promise.resolve(runAlone(db.sql, body));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const connection = db.em().getConnection();
  return connection.transactional(async (trx) => {
    const steps = body(tx);
    let next = steps.next();
    while (!next.done) {
      const s = next.value;
      const result = await connection.execute<any>(s.sql, s.params, s.method === "lock" ? "get" : s.method, trx);
      next = steps.next(s.method === "run" ? { changes: (result as { affectedRows: number }).affectedRows } : s.method === "get" ? (result ?? undefined) : result);
    }
    return next.value;
  });
}

/** Runs a connection's function in a transaction, or in a savepoint when one is open already (better-sqlite3's nesting). */
function transactionOf(sql: BetterSqlite3.Database): (steps: () => unknown) => unknown {
  return transactionBySql.get(sql) ?? transactionBySql.set(sql, sql.transaction((steps: () => unknown) => steps())).get(sql)!;
}

/** Runs a body as a transaction of its own (a savepoint inside an open one), synchronously; its result. */
function runAlone<R>(sql: BetterSqlite3.Database, body: AtomicBody<R>): R {
  return transactionOf(sql)(() => runSteps(sql, body)) as R;
}

/** Drives a body's statements on SQLite, synchronously; its result. */
function runSteps<R>(sql: BetterSqlite3.Database, body: AtomicBody<R>): R {
  const steps = body(tx);
  let next = steps.next();
  while (!next.done) next = steps.next(runOnSqlite(sql, next.value));
  return next.value;
}

interface GroupedStep {
  body: AtomicBody<unknown>;
  resolve: (value: any) => void;
  reject: (error: unknown) => void;
}

/** Each connection's grouped steps waiting for the end of the turn. */
const groupBySql = new WeakMap<BetterSqlite3.Database, GroupedStep[]>();

function joinGroup<R>(sql: BetterSqlite3.Database, body: AtomicBody<R>): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    let group = groupBySql.get(sql);
    if (!group) {
      groupBySql.set(sql, (group = []));
      // After the poll phase: the writes of every request read in this turn are queued by then.
      setImmediate(() => commitGroup(sql));
    }
    group.push({ body, resolve, reject });
  });
}

/**
 * A step's own refusal, which fails that step alone: an error its body threw, or a
 * constraint its statements broke. Anything else the driver reports (busy, full, I/O, a
 * damaged file) is the storage's and fails the group.
 */
function ownRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code !== "string" || !code.startsWith("SQLITE_") || code.startsWith("SQLITE_CONSTRAINT");
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Runs the turn's grouped steps in one transaction, each in a savepoint; settles each once it has committed. */
function commitGroup(sql: BetterSqlite3.Database): void {
  const group = groupBySql.get(sql)!;
  groupBySql.delete(sql);
  // Alone in its turn: its own transaction, without a savepoint.
  if (group.length === 1) return settle(group[0]!, sql);
  const outcomes: Outcome[] = [];
  try {
    transactionOf(sql)(() => {
      for (const step of group) {
        try {
          outcomes.push({ ok: true, value: runAlone(sql, step.body) });
        } catch (error) {
          if (!ownRefusal(error)) throw error;
          outcomes.push({ ok: false, error });
        }
      }
    });
  } catch (error) {
    // Nothing of the group was kept. A constraint checked only at the commit (a deferred
    // foreign key) names no step: each runs again alone, so that only its own fails.
    if (ownRefusal(error)) for (const step of group) settle(step, sql);
    else for (const step of group) step.reject(error);
    return;
  }
  group.forEach((step, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) step.resolve(outcome.value);
    else step.reject(outcome.error);
  });
}

/** Runs a step alone and settles it with its outcome. */
function settle(step: GroupedStep, sql: BetterSqlite3.Database): void {
  try {
    step.resolve(runAlone(sql, step.body));
  } catch (error) {
    step.reject(error);
  }
}

/**
 * Runs `fn` while holding the deployment-wide lock on `key`: for a change that is not one
 * atomic step (files in the shared workspace, then rows, then an approval) but must not
 * interleave with the same change on another instance of a team. On PostgreSQL a
 * transaction-scoped advisory lock (the key's hash, as {@link AtomicTx.lock}) on a pooled
 * connection of its own, kept until `fn` settles; `fn`'s own statements use other
 * connections. On SQLite `fn` alone (one process). Serialise the callers of one process
 * first (a queue), so that each process holds at most one connection waiting on the lock.
 */
export async function whileLocked<R>(db: Database, key: string, fn: () => Promise<R>): Promise<R> {
  if (db.engine !== "postgresql") return fn();
  const connection = db.em().getConnection();
  return connection.transactional(async (trx) => {
    await connection.execute(LOCK_SQL, [key], "get", trx);
    return fn();
  });
}
