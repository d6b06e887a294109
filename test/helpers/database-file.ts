// A host's database file opened directly, only for what the API cannot do or show: fault
// injection (tamper with a row, simulate a crash, hold the lock) and facts no route exposes
// (rows at rest). docs/testing.md lists each suite's use and why.
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import type { Callback, Test } from "uvu";
import { onPostgres } from "./start-test-host.ts";

/**
 * The suite's `test` for a test that opens `muster.db` itself: skipped, saying why, when the
 * suites run on PostgreSQL (`MUSTER_TEST_POSTGRES=1`), where the host has no such file.
 */
export function sqliteFileTest<T>(t: Test<T>, why: string): (name: string, fn: Callback<T>) => void {
  if (!onPostgres) return t;
  return (name, fn) => {
    console.log(`skipped on PostgreSQL: "${name}": ${why}`);
    t.skip(name, fn);
  };
}

/** Runs `fn` on `<home>/muster.db` and closes it; WAL lets it run beside a running host. */
export function withDatabaseFile<T>(home: string, fn: (db: BetterSqlite3.Database) => T, options: { readonly?: boolean } = {}): T {
  const db = new BetterSqlite3(join(home, "muster.db"), { readonly: options.readonly ?? false });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** One usage cost event as stored. */
export interface StoredCostEvent {
  model: string;
  taskId: string | null;
  estimatedCostCents: number;
  /** SQLite's boolean: 1 priced from the price table, 0 unknown model. */
  priced: number;
  action: string;
}

/** An agent's cost events as stored, oldest first: GET /api/usage shows totals only, not each event's model, task or action. */
export function storedCostEvents(home: string, agentId: string): StoredCostEvent[] {
  return withDatabaseFile(
    home,
    (db) => db.prepare("SELECT model, taskId, estimatedCostCents, priced, action FROM usage_cost_events WHERE agentId = ? ORDER BY timestamp, rowid").all(agentId) as StoredCostEvent[],
    { readonly: true },
  );
}
