// Another connection holds a table against writes (`LOCK TABLE … IN EXCLUSIVE MODE`: reads
// still pass) while a request that writes to it runs: the team-mode tests use it to show that
// a request answers only once its queued write is stored, not before (the write waits on the
// lock, the answer must too). PostgreSQL only.
import { createRequire } from "node:module";
import * as assert from "uvu/assert";
import { waitUntil } from "./wait.ts";

/** `pg`'s Client, as far as used here (`pg` ships no types; it comes with MikroORM's driver). */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}
const { Client } = createRequire(import.meta.url)("pg") as { Client: new (options: { connectionString: string }) => PgClient };

/**
 * Runs `request` while `table` is held and fails if it answers before its write to the table
 * is seen waiting on the lock (it answered before storing); then releases the table and
 * returns the answer.
 */
export async function answeredOnlyOnceStored<T>(url: string, table: string, request: () => Promise<T>): Promise<T> {
  const holder = new Client({ connectionString: url });
  await holder.connect();
  const waiting = `SELECT count(*) AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = '${table}' AND NOT l.granted`;
  try {
    await holder.query("BEGIN");
    await holder.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
    const answer = request();
    const writeWaits = waitUntil(async () => Number((await holder.query(waiting)).rows[0]!.n) > 0, { timeoutMs: 30_000, label: `the write to ${table} waiting on the lock` });
    const first = await Promise.race([answer.then(() => "answered"), writeWaits.then(() => "write waiting")]);
    assert.is(first, "write waiting", `the request answered while its write to ${table} could not be stored`);
    await holder.query("COMMIT");
    return await answer;
  } finally {
    await holder.query("ROLLBACK").catch(() => undefined);
    await holder.end();
  }
}
