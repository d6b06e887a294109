// Storage faults on PostgreSQL (issue 25, DESIGN §16) reach clients as the same coded answers
// as SQLite's: a server that is gone or drops Muster's connection, or a read-only database,
// is 503 DATABASE_UNAVAILABLE; a row lock another connection holds is waited out within the
// busy budget, then 503 DATABASE_BUSY with Retry-After; a full disk is 507 DATABASE_FULL;
// never a 500, and /api/health is degraded meanwhile. All on a real, throwaway cluster, the
// faults made for real (a TCP link cut, pg_terminate_backend, ALTER DATABASE, a full tmpfs).
// Skipped, with the reason printed, where PostgreSQL's server binaries are missing.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { createServer, connect, type Server, type Socket } from "node:net";
import { mkdtempSync, rmSync, writeFileSync, chownSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { DriverException } from "@mikro-orm/core";
import { PostgreSqlPlatform } from "@mikro-orm/postgresql";
import { settingsPlugin } from "../../plugins/settings/index.ts";
import { storageFault } from "../../core/internal/database-faults.ts";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { freePort, postgresUnavailable, startPostgres, type PostgresCluster } from "../helpers/postgres-cluster.ts";
import { waitUntil } from "../helpers/wait.ts";

const t = suite<{ hosts: TestHost[]; clients: PgClient[]; relays: { cut(): Promise<void> }[] }>("storage faults on PostgreSQL");
const unavailable = postgresUnavailable();
if (unavailable) console.log(`storage faults on PostgreSQL: skipped, ${unavailable}`);
const test = unavailable ? t.skip : t;

/** The part of `pg`'s Client the tests use (`pg` ships no types; it comes with MikroORM's driver). */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}
const { Client } = createRequire(import.meta.url)("pg") as { Client: new (options: { connectionString: string }) => PgClient & { on(event: "error", listener: () => void): void } };

// Generous bounds: a hang fails the test instead of stalling the suite; no timing is asserted.
const BOUND_MS = 30_000;

let cluster: PostgresCluster | undefined;
const database = async () => (cluster ??= await startPostgres()).createDatabase();
const cleanups: (() => void)[] = [];
t.before.each((ctx) => {
  ctx.hosts = [];
  ctx.clients = [];
  ctx.relays = [];
});
t.after.each(async (ctx) => {
  for (const client of ctx.clients) await client.end().catch(() => {});
  for (const link of ctx.relays) await link.cut();
  for (const h of ctx.hosts) {
    await h.stop();
    removeHome(h.home);
  }
});
t.after(async () => {
  await cluster?.stop();
  // After the server is gone: nothing holds the tmpfs open any more.
  for (const cleanup of cleanups) cleanup();
});

/** Another connection to the database at `url`, as an operator or another application has. */
async function client(ctx: { clients: PgClient[] }, url: string): Promise<PgClient> {
  const c = new Client({ connectionString: url });
  // A connection the test terminates on purpose reports it as an event: not a crash.
  c.on("error", () => {});
  await c.connect();
  ctx.clients.push(c);
  return c;
}

const dbName = (url: string) => new URL(url).pathname.slice(1);

/** Host on `url` with the settings plugin (store kit only), its logs kept. */
async function host(ctx: { hosts: TestHost[] }, url: string, busyBudgetMs: number) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const h = await startTestHost({ plugins: [settingsPlugin], env: { DATABASE_URL: url }, logger, config: { databaseBusyBudgetMs: busyBudgetMs } });
  ctx.hosts.push(h);
  return { h, lines };
}

const put = (h: TestHost, key: string, value: unknown) => h.json(`/api/settings/${key}`, { method: "PUT", body: { value } });

/** The backends Muster's host has open on the database (the operator's own excluded). */
async function musterBackends(admin: PgClient, url: string): Promise<number> {
  const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'", [dbName(url)]);
  return rows[0]!.n as number;
}

/** Ends every connection Muster has open, and waits until the server has none (so the pool has seen them go). */
async function terminateMuster(admin: PgClient, url: string): Promise<void> {
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'", [dbName(url)]);
  await waitUntil(async () => (await musterBackends(admin, url)) === 0, { timeoutMs: BOUND_MS, label: "Muster's connections to end" });
}

/** Holds the row of setting `key` locked (SELECT … FOR UPDATE in an open transaction) until `release()`. */
async function lockSetting(admin: PgClient, key: string) {
  await admin.query("BEGIN");
  const { rows } = await admin.query(`SELECT key FROM settings_settings WHERE key = $1 FOR UPDATE`, [key]);
  assert.is(rows.length, 1, "the row to lock exists");
  return { release: () => admin.query("ROLLBACK") };
}

/** The storage guard's debug line when a request meets a lock and waits for its next attempt. */
const RETRY_LOG = "database locked by another process; the request waits for the lock";

/** A host with the setting `theme` stored, and its row then locked by another connection. */
async function themeLocked(ctx: { hosts: TestHost[]; clients: PgClient[] }, busyBudgetMs: number) {
  const url = await database();
  const { h, lines } = await host(ctx, url, busyBudgetMs);
  assert.is((await put(h, "theme", "dark")).status, 200);
  const lock = await lockSetting(await client(ctx, url), "theme");
  return { h, lines, lock };
}

/**
 * A TCP relay from a local port to the server: Muster's DATABASE_URL points at it, so the
 * test can cut the link (the server "gone": connections reset, new ones refused) and bring it
 * back on the same port, the cluster untouched.
 */
async function relay(ctx: { relays: { cut(): Promise<void> }[] }, targetUrl: string) {
  const target = new URL(targetUrl);
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((incoming) => {
        const outgoing = connect(Number(target.port), target.hostname);
        for (const s of [incoming, outgoing]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s)).on("error", () => {});
        }
        incoming.pipe(outgoing).pipe(incoming);
      });
      server.once("error", reject).listen(port, "127.0.0.1", resolve);
    });
  await open();
  const url = Object.assign(new URL(targetUrl), { port: String(port) }).toString();
  const link = {
    url,
    async cut() {
      // Refuse new connections, then reset the open ones (close() alone waits for them to end).
      const closed = server?.listening ? new Promise((resolve) => server!.close(resolve)) : null;
      for (const s of sockets) s.destroy();
      await closed;
    },
    open,
  };
  ctx.relays.push(link);
  return link;
}

test("the server gone: 503 DATABASE_UNAVAILABLE (never 500) and health an error; the next request once it is back works", async (ctx) => {
  const link = await relay(ctx, await database());
  const { h } = await host(ctx, link.url, 2_000);
  assert.is((await put(h, "theme", "dark")).status, 200);

  await link.cut();
  const refused = await put(h, "theme", "light");
  assert.is(refused.status, 503, JSON.stringify(refused.body));
  assert.is(refused.body.error!.code, "DATABASE_UNAVAILABLE");
  assert.not.ok(/ECONNREFUSED|127\.0\.0\.1|terminated/.test(JSON.stringify(refused.body)), "no driver internals in the answer");
  const read = await h.json("/api/settings");
  assert.is(read.status, 503, "a read meets the same fault");
  assert.is(read.body.error!.code, "DATABASE_UNAVAILABLE");
  const health = await h.json("/api/health");
  assert.is(health.status, 503);
  assert.is(health.body.database, "error");

  await link.open();
  const back = await put(h, "theme", "light");
  assert.is(back.status, 200, JSON.stringify(back.body));
  assert.is((await h.json("/api/settings")).body.settings.theme, "light");
  const recovered = await h.json("/api/health");
  assert.is(recovered.status, 200, JSON.stringify(recovered.body));
  assert.is(recovered.body.database, "ok");
});

test("a connection terminated under a request (pg_terminate_backend): 503 DATABASE_UNAVAILABLE; the next request works", async (ctx) => {
  const url = await database();
  const { h } = await host(ctx, url, 60_000);
  assert.is((await put(h, "theme", "dark")).status, 200);
  const admin = await client(ctx, url);
  const lock = await lockSetting(admin, "theme");
  // The request waits for the row; its backend is ended while it waits.
  const pending = put(h, "theme", "light");
  const other = await client(ctx, url);
  await waitUntil(
    async () => {
      const { rows } = await other.query("SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND pid <> $2) ended", [dbName(url), (await admin.query("SELECT pg_backend_pid() AS pid")).rows[0]!.pid]);
      return (rows[0]!.n as number) > 0;
    },
    { timeoutMs: BOUND_MS, label: "Muster's statement to wait for the lock" },
  );
  const refused = await pending;
  assert.is(refused.status, 503, JSON.stringify(refused.body));
  assert.is(refused.body.error!.code, "DATABASE_UNAVAILABLE");
  await lock.release();

  const next = await put(h, "theme", "light");
  assert.is(next.status, 200, JSON.stringify(next.body));
  assert.is((await h.json("/api/settings")).body.settings.theme, "light");
  assert.is((await h.json("/api/health")).body.database, "ok");
});

test("a row locked past the busy budget: retried, then 503 DATABASE_BUSY with Retry-After, nothing written; health degraded until a write succeeds", async (ctx) => {
  // lock_timeout is a slice of the budget (at most 1 s): 1.5 s means a second attempt that fails too.
  const { h, lines, lock } = await themeLocked(ctx, 1_500);

  const refused = await put(h, "theme", "light");
  assert.is(refused.status, 503, JSON.stringify(refused.body));
  assert.is(refused.body.error!.code, "DATABASE_BUSY");
  assert.is(refused.headers.get("retry-after"), "1");
  assert.not.ok(/55P03|lock timeout/.test(JSON.stringify(refused.body)), "no driver internals in the answer");
  assert.ok(lines.some((l) => l.msg === RETRY_LOG), "the request was retried");
  const degraded = await h.json("/api/health");
  assert.is(degraded.status, 503);
  assert.is(degraded.body.database, "degraded");
  assert.is(degraded.body.databaseFault?.code, "DATABASE_BUSY");

  await lock.release();
  assert.is((await h.json("/api/settings")).body.settings.theme, "dark", "nothing of the refused write is stored");
  assert.is((await put(h, "theme", "light")).status, 200);
  const recovered = await h.json("/api/health");
  assert.is(recovered.status, 200);
  assert.is(recovered.body.database, "ok");
  assert.is(recovered.body.databaseFault, undefined);
});

test("a row lock released within the busy budget: the request waits, is retried, and succeeds", async (ctx) => {
  const { h, lines, lock } = await themeLocked(ctx, 60_000);

  const pending = put(h, "theme", "light");
  // Held past one lock_timeout slice, so the request has met 55P03 and waits for its next attempt.
  await waitUntil(() => lines.some((l) => l.msg === RETRY_LOG), { timeoutMs: BOUND_MS, label: "the request's first retry" });
  await lock.release();
  const answer = await pending;
  assert.is(answer.status, 200, JSON.stringify(answer.body));
  assert.is((await h.json("/api/settings")).body.settings.theme, "light");
  assert.is((await h.json("/api/health")).body.database, "ok");
});

test("a read-only database (default_transaction_read_only on new connections): 503 DATABASE_UNAVAILABLE, health degraded; writable again, writes work", async (ctx) => {
  const url = await database();
  const { h } = await host(ctx, url, 2_000);
  assert.is((await put(h, "theme", "dark")).status, 200);
  const admin = await client(ctx, url);
  await admin.query(`ALTER DATABASE "${dbName(url)}" SET default_transaction_read_only = on`);
  await terminateMuster(admin, url);

  const refused = await put(h, "theme", "light");
  assert.is(refused.status, 503, JSON.stringify(refused.body));
  assert.is(refused.body.error!.code, "DATABASE_UNAVAILABLE");
  const read = await h.json("/api/settings");
  assert.is(read.status, 200, "reads still work");
  assert.is(read.body.settings.theme, "dark");
  const degraded = await h.json("/api/health");
  assert.is(degraded.status, 503);
  assert.is(degraded.body.database, "degraded");
  assert.is(degraded.body.databaseFault?.code, "DATABASE_UNAVAILABLE");

  await admin.query(`ALTER DATABASE "${dbName(url)}" RESET default_transaction_read_only`);
  await terminateMuster(admin, url);
  assert.is((await put(h, "theme", "light")).status, 200);
  assert.is((await h.json("/api/health")).body.database, "ok");
});

/** Why a real full disk cannot be made here (a small tmpfs needs root), or null. */
function tmpfsUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "mounting a small tmpfs needs root";
  return null;
}

test("a full disk (the settings table on a full tmpfs tablespace): 507 DATABASE_FULL, health degraded; space freed, writes work", async (ctx) => {
  const reason = tmpfsUnavailable();
  if (reason) {
    console.log(`storage faults on PostgreSQL: the real full disk is not made here, ${reason} (storageFault's mapping of 53100 is tested below)`);
    return;
  }
  const url = await database();
  const { h } = await host(ctx, url, 2_000);
  assert.is((await put(h, "theme", "dark")).status, 200);
  const dir = mkdtempSync(join(tmpdir(), "muster-pg-full-"));
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=4m,mode=0700,uid=${uid},gid=${gid}`, "tmpfs", dir]);
  cleanups.push(() => {
    execFileSync("umount", ["-l", dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  const admin = await client(ctx, url);
  const space = `muster_full_${process.pid}`;
  await admin.query(`CREATE TABLESPACE ${space} LOCATION '${dir}'`);
  await admin.query(`ALTER TABLE settings_settings SET TABLESPACE ${space}`);
  // Fill the tmpfs with a file of the server's user, then the table's last page with rows,
  // so that the next row needs a page the disk cannot give.
  const filler = join(dir, "filler");
  writeFileSync(filler, "");
  chownSync(filler, uid, gid);
  for (let chunk = 1024 * 1024; chunk >= 4096; ) {
    try {
      writeFileSync(filler, Buffer.alloc(chunk), { flag: "a" });
    } catch {
      chunk /= 2;
    }
  }
  for (let full = false, n = 0; !full; n++) {
    try {
      await admin.query(`INSERT INTO settings_settings (key, value, "updatedAt") VALUES ($1, '"x"', 'now')`, [`filler-${n}`]);
    } catch (error) {
      assert.is((error as { code?: string }).code, "53100", (error as Error).message);
      full = true;
    }
  }

  const refused = await put(h, "theme-on-a-new-page", "x".repeat(2_000));
  assert.is(refused.status, 507, JSON.stringify(refused.body));
  assert.is(refused.body.error!.code, "DATABASE_FULL");
  const degraded = await h.json("/api/health");
  assert.is(degraded.status, 503);
  assert.is(degraded.body.database, "degraded");
  assert.is(degraded.body.databaseFault?.code, "DATABASE_FULL");

  rmSync(filler);
  assert.is((await put(h, "theme-on-a-new-page", "x".repeat(2_000))).status, 200);
  assert.is((await h.json("/api/health")).body.database, "ok");
});

/** The error a statement on `c` rejects with. */
async function failure(run: () => Promise<unknown>): Promise<Error & { code?: string }> {
  const error = await run().then(
    () => null,
    (e: Error) => e,
  );
  assert.ok(error, "the statement failed");
  return error;
}

test("storageFault() on pg's real errors, raw and as MikroORM's DriverException: busy, full, unavailable, or none", async (ctx) => {
  const url = await database();
  const a = await client(ctx, url);
  const b = await client(ctx, url);
  await a.query("CREATE TABLE t (id int PRIMARY KEY)");
  await a.query("INSERT INTO t VALUES (1), (2)");
  const raise = (errcode: string) => failure(() => a.query(`DO $$ BEGIN RAISE EXCEPTION 'raised' USING ERRCODE = '${errcode}'; END $$`));

  await a.query("BEGIN");
  await a.query("SELECT * FROM t WHERE id = 1 FOR UPDATE");
  const nowait = await failure(() => b.query("SELECT * FROM t WHERE id = 1 FOR UPDATE NOWAIT"));
  await b.query("SET lock_timeout = 50");
  const timedOut = await failure(() => b.query("UPDATE t SET id = 1 WHERE id = 1"));
  await a.query("ROLLBACK");
  await b.query("BEGIN TRANSACTION READ ONLY");
  const readOnly = await failure(() => b.query("INSERT INTO t VALUES (3)"));
  await b.query("ROLLBACK");
  const duplicate = await failure(() => b.query("INSERT INTO t VALUES (1)"));

  const victim = await client(ctx, url);
  const pid = (await victim.query("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  const killed = failure(() => victim.query("SELECT pg_sleep(60)"));
  await waitUntil(async () => (await a.query("SELECT pg_terminate_backend($1) AS ended FROM pg_stat_activity WHERE pid = $1 AND wait_event = 'PgSleep'", [pid])).rows.length > 0, { timeoutMs: BOUND_MS, label: "the victim's sleep" });
  const terminated = await killed;

  const refused = await failure(async () => {
    const c = new Client({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/x` });
    await c.connect();
  });

  const cases: [string, Error & { code?: string }, string | null][] = [
    ["55P03 NOWAIT", nowait, "busy"],
    ["55P03 lock_timeout", timedOut, "busy"],
    ["40001 serialization_failure", await raise("40001"), "busy"],
    ["40P01 deadlock_detected", await raise("40P01"), "busy"],
    ["53100 disk_full", await raise("53100"), "full"],
    ["53300 too_many_connections", await raise("53300"), "unavailable"],
    ["08006 connection_failure", await raise("08006"), "unavailable"],
    ["57P03 cannot_connect_now", await raise("57P03"), "unavailable"],
    ["57P02 crash_shutdown", await raise("57P02"), "unavailable"],
    ["25006 read_only_sql_transaction", readOnly, "unavailable"],
    ["57P01 admin_shutdown (terminated)", terminated, "unavailable"],
    ["23505 unique_violation", duplicate, null],
    // Not marked as the database's by Muster's pool: a plugin's own refused connection stays its error.
    ["ECONNREFUSED outside Muster's pool", refused, null],
  ];
  const converter = new PostgreSqlPlatform().getExceptionConverter();
  for (const [what, error, expected] of cases) {
    assert.is(storageFault(error), expected, `${what} (raw ${error.constructor.name})`);
    const wrapped = converter.convertException(error as Error & { code: string });
    assert.instance(wrapped, DriverException);
    assert.is(storageFault(wrapped), expected, `${what} (MikroORM's ${wrapped.constructor.name})`);
    assert.is(storageFault(new Error("a plugin's wrapper", { cause: wrapped })), expected, `${what} (in a cause chain)`);
  }
  assert.is(terminated.code, "57P01");
  assert.is(refused.code, "ECONNREFUSED");
});

t.run();
