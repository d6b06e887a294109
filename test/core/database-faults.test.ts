// Storage faults (catalogue group I, issue 8 item 5): a database locked by another process
// or out of space never freezes the server and never answers 500.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pino from "pino";
import { defineErrors, defineHook, definePlugin, hostErrors, hostTokens, z, type Database } from "@muster/plugin";
import { workPlugin } from "../../plugins/work/index.ts";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { openSse } from "../helpers/sse-client.ts";
import { waitUntil } from "../helpers/wait.ts";

/** A plugin's own catalogue, for an error it wraps around the driver's. */
const noteErrors = defineErrors({ NOTE_CONFLICT: { status: 409, message: "conflict" } });

const t = suite<{ hosts: TestHost[]; children: ChildProcess[] }>("database faults");

const LOCK_HOLDER = fileURLToPath(new URL("./fixtures/hold-database-lock.mjs", import.meta.url));
// Generous bounds so that a hang fails the test instead of stalling the suite; no timing is asserted.
const BOUND_MS = 15_000;

t.before.each((ctx) => {
  ctx.hosts = [];
  ctx.children = [];
});
t.after.each(async (ctx) => {
  for (const child of ctx.children) if (child.exitCode === null && child.signalCode === null) child.kill();
  for (const h of ctx.hosts) {
    await h.stop();
    removeHome(h.home);
  }
});

function within<T>(promise: Promise<T>, what: string, ms = BOUND_MS): Promise<T> {
  let timer: NodeJS.Timeout;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

/** A pino logger whose lines the test can wait for (bounded by BOUND_MS, naming what it awaited). */
function capturedLogs() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const waitFor = (match: (line: Record<string, unknown>) => boolean, label: string) => waitUntil(() => lines.find(match), { timeoutMs: BOUND_MS, label });
  return { logger, waitFor };
}

/** Another process holding the database's write lock (BEGIN EXCLUSIVE) until `release()`. */
async function holdLock(ctx: { children: ChildProcess[] }, dbFile: string) {
  const child = spawn(process.execPath, [LOCK_HOLDER, dbFile], { stdio: ["pipe", "pipe", "pipe"] });
  ctx.children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout! });
  const next = (expected: string) =>
    new Promise<void>((resolve, reject) => {
      const onLine = (line: string) => {
        if (line !== expected) return;
        lines.off("line", onLine);
        resolve();
      };
      lines.on("line", onLine);
      child.once("exit", (code) => reject(new Error(`lock holder exited (${code}) before "${expected}": ${stderr}`)));
    });
  await within(next("locked"), "the lock holder to take the lock");
  return {
    async release() {
      const released = next("released");
      child.stdin!.write("release\n");
      await within(released, "the lock holder to release the lock");
    },
  };
}

const titles = async (h: TestHost) => ((await h.json<{ title: string }[]>("/api/tasks")).body).map((task) => task.title);

t("a write waits for another process's lock off the event loop, health answers meanwhile, and the write lands once the lock is gone", async (ctx) => {
  const logs = capturedLogs();
  const h = await startTestHost({ logger: logs.logger, config: { databaseBusyBudgetMs: 60_000 } });
  ctx.hosts.push(h);
  const lock = await holdLock(ctx, join(h.home, "muster.db"));

  // The host runs in this process: a statement waiting inside SQLite would stall this loop.
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  let writeSettled = false;
  const write = h.json("/api/tasks", { method: "POST", body: { title: "written after the lock" }, headers: { "x-request-id": "locked-write-0001" } });
  void write.finally(() => (writeSettled = true));
  await logs.waitFor((line) => line.requestId === "locked-write-0001" && /waits for the lock/.test(String(line.msg)), "the write to meet the lock");

  // The server is not stuck behind the waiting write: health and reads answer while the lock is held.
  const health = await within(h.json("/api/health"), "GET /api/health while the lock is held");
  assert.is(health.status, 200);
  assert.is(health.body.status, "ok", "nothing has failed yet: the write is still within its budget");
  assert.is(health.body.database, "ok");
  assert.not.ok((await titles(h)).includes("written after the lock"));
  assert.not.ok(writeSettled, "the write is still waiting for the lock");

  await lock.release();
  const created = await within(write, "the waiting write after the release");
  stalls.disable();
  assert.is(created.status, 201);
  // With SQLite's 5 s busy timeout the loop stood still for 5 s per attempt (health took
  // 4.5-9.6 s); the bound is generous against the ~10 ms a statement may now wait.
  assert.ok(stalls.max < 2_000 * 1e6, `the event loop stalled for ${Math.round(stalls.max / 1e6)} ms`);
  assert.is((await titles(h)).filter((title) => title === "written after the lock").length, 1, "written exactly once");
  assert.is((await h.json("/api/health")).body.database, "ok");
});

t("past the budget a locked write is 503 DATABASE_BUSY with Retry-After, writes nothing, and health is degraded until the lock is gone", async (ctx) => {
  const h = await startTestHost({ config: { databaseBusyBudgetMs: 300 } });
  ctx.hosts.push(h);
  const lock = await holdLock(ctx, join(h.home, "muster.db"));

  const refused = await within(h.json("/api/tasks", { method: "POST", body: { title: "refused while locked" } }), "the locked write");
  assert.is(refused.status, 503);
  assert.is(refused.body.error!.code, "DATABASE_BUSY");
  assert.is(refused.headers.get("retry-after"), "1");
  assert.not.ok(JSON.stringify(refused.body).includes("SQLITE"), "no driver internals in the answer");

  const degraded = await within(h.json("/api/health"), "GET /api/health while writes fail");
  assert.is(degraded.status, 503);
  assert.is(degraded.body.status, "degraded");
  assert.is(degraded.body.database, "degraded");
  assert.is(degraded.body.databaseFault?.code, "DATABASE_BUSY");
  assert.not.ok((await titles(h)).includes("refused while locked"), "nothing of the refused write is stored");

  await lock.release();
  const recovered = await h.json("/api/health");
  assert.is(recovered.status, 200);
  assert.is(recovered.body.database, "ok");
  assert.is(recovered.body.databaseFault, undefined);
  assert.is((await h.json("/api/tasks", { method: "POST", body: { title: "after the lock" } })).status, 201);
});

t("a full database is 507 DATABASE_FULL, stays intact, and takes writes again once space frees", async (ctx) => {
  let db: Database | undefined;
  const grabDb = definePlugin({ id: "db-probe", version: "1.0.0", host: "^1.0.0", onStart: defineHook({ deps: { db: hostTokens.db }, run: (deps) => void (db = deps.db) }) });
  // Only the plugin under test: no background writer may land a small write in between.
  const h = await startTestHost({ plugins: [workPlugin], extraPlugins: [grabDb] });
  ctx.hosts.push(h);
  const sql = db!.sql;
  assert.is((await h.json("/api/tasks", { method: "POST", body: { title: "before the disk filled" } })).status, 201);
  const limit = sql.pragma("max_page_count", { simple: true }) as number;
  // A size limit on the server's own connection, then every free page used up: the next
  // new page is "disk full" (SQLITE_FULL), as on a full disk.
  sql.exec("CREATE TABLE test_filler (b BLOB)");
  sql.pragma(`max_page_count = ${sql.pragma("page_count", { simple: true }) as number}`);
  const fill = sql.prepare("INSERT INTO test_filler (b) VALUES (zeroblob(1000))");
  for (let i = 0; i < 10_000; i++) {
    try {
      fill.run();
    } catch (error) {
      assert.is((error as { code?: string }).code, "SQLITE_FULL");
      break;
    }
  }

  const refused = await h.json("/api/tasks", { method: "POST", body: { title: "refused on a full disk", description: "x".repeat(19_000) } });
  assert.is(refused.status, 507);
  assert.is(refused.body.error!.code, "DATABASE_FULL");
  assert.not.ok(JSON.stringify(refused.body).includes("SQLITE"), "no driver internals in the answer");
  const degraded = await h.json("/api/health");
  assert.is(degraded.status, 503);
  assert.is(degraded.body.database, "degraded");
  assert.is(degraded.body.databaseFault?.code, "DATABASE_FULL");
  assert.is(sql.pragma("integrity_check", { simple: true }), "ok");
  assert.equal(await titles(h), ["before the disk filled"], "nothing of the refused write is stored");

  sql.pragma(`max_page_count = ${limit}`);
  assert.is((await h.json("/api/tasks", { method: "POST", body: { title: "after space freed", description: "x".repeat(19_000) } })).status, 201);
  const recovered = await h.json("/api/health");
  assert.is(recovered.status, 200);
  assert.is(recovered.body.database, "ok");
  assert.is(sql.pragma("integrity_check", { simple: true }), "ok");
});

t("a write outside any request (the activity log of a workspace change) that meets the lock is logged, and the server goes on", async (ctx) => {
  const logs = capturedLogs();
  const h = await startTestHost({ logger: logs.logger, config: { watchDebounceMs: 30 } });
  ctx.hosts.push(h);
  const sse = await openSse(h.url);
  try {
    const fileChange = (path: string) => sse.next((f) => f.data?.type === "file_change" && f.data.event.path === path, BOUND_MS, path);
    mkdirSync(join(h.workspace, "memory"), { recursive: true });
    const lock = await holdLock(ctx, join(h.home, "muster.db"));

    writeFileSync(join(h.workspace, "memory/while-locked.md"), "written while the database is locked\n");
    const failure = await logs.waitFor(
      (line) => line.msg === "event handler failed" && /^SQLITE_BUSY/.test(String((line.err as { code?: unknown } | undefined)?.code)),
      "the activity log's failed write to be logged",
    );
    assert.is(failure.event, "workspace.file.changed");
    assert.is((await within(h.json("/api/health"), "GET /api/health after a background write failed")).status, 200);

    await lock.release();
    writeFileSync(join(h.workspace, "memory/after-release.md"), "written after the lock\n");
    await fileChange("memory/after-release.md");
    const logged = (await h.json<{ target: string }[]>("/api/activities?agentId=watcher&limit=1000")).body.map((a) => a.target);
    assert.ok(logged.includes("memory/after-release.md"), "the activity log writes again");
    assert.not.ok(logged.includes("memory/while-locked.md"), "the failed write left nothing half-written");
  } finally {
    sse.close();
  }
});

t("storage faults map to stable codes, never 500; a plugin's own client error is left alone", async (ctx) => {
  const faulty = definePlugin({
    id: "faulty-storage",
    version: "1.0.0",
    host: "^1.0.0",
    paths: ["/api/faulty"],
    routes(router) {
      router.post("/api/faulty/:code", { summary: "Fails as the driver does with this result code", params: z.object({ code: z.string() }) }, ({ params }) => {
        throw Object.assign(new Error("simulated driver failure"), { code: params.code });
      });
      // A plugin that wrapped the driver's error: its own 4xx stays, a 5xx is looked through.
      router.post("/api/faulty/wrapped/conflict", { summary: "A plugin's 409 caused by a locked database" }, () => {
        throw noteErrors.NOTE_CONFLICT({}, { cause: Object.assign(new Error("locked"), { code: "SQLITE_BUSY" }) });
      });
      router.post("/api/faulty/wrapped/internal", { summary: "A plugin's 500 caused by a full disk" }, () => {
        throw hostErrors.INTERNAL_ERROR({}, { cause: Object.assign(new Error("full"), { code: "SQLITE_FULL" }) });
      });
    },
  });
  const h = await startTestHost({ extraPlugins: [faulty], config: { databaseBusyBudgetMs: 50 } });
  ctx.hosts.push(h);
  const cases: [string, number, string][] = [
    ["SQLITE_BUSY", 503, "DATABASE_BUSY"],
    ["SQLITE_BUSY_SNAPSHOT", 503, "DATABASE_BUSY"],
    ["SQLITE_LOCKED", 503, "DATABASE_BUSY"],
    ["SQLITE_FULL", 507, "DATABASE_FULL"],
    ["SQLITE_IOERR_WRITE", 503, "DATABASE_UNAVAILABLE"],
    ["SQLITE_IOERR_FSYNC", 503, "DATABASE_UNAVAILABLE"],
    ["SQLITE_READONLY", 503, "DATABASE_UNAVAILABLE"],
    ["SQLITE_CORRUPT", 503, "DATABASE_UNAVAILABLE"],
    ["SQLITE_ERROR", 500, "INTERNAL_ERROR"],
    ["wrapped/conflict", 409, "NOTE_CONFLICT"],
    ["wrapped/internal", 507, "DATABASE_FULL"],
  ];
  for (const [code, status, errorCode] of cases) {
    const { status: got, body, headers } = await h.json(`/api/faulty/${code}`, { method: "POST", body: {} });
    assert.is(got, status, code);
    assert.is(body.error!.code, errorCode, code);
    assert.is(headers.get("retry-after"), errorCode === "DATABASE_BUSY" ? "1" : null, `${code} Retry-After`);
  }
});

t.run();
