// bench:api's PostgreSQL column (issue 25, "Speed"): `npm run bench:api -- --postgres`.
// In one run on this machine: Muster on SQLite against one instance on PostgreSQL (a
// throwaway cluster the bench starts and always stops, as the tests do), then two instances
// on that database behind Debian's haproxy (when `haproxy` is on PATH). Figures: GET
// /api/tasks req/s (target: two instances ≥ 1.6x one), the p99 of a write on one instance
// reaching a stream client of the other (< 100 ms), and how long a dead instance's cron run
// and outbox send take to be settled by the survivor after kill -9 (< 10 s). Written to the
// team section of the benchmarks page.
//
// Apart from the full run (`--postgres` runs it alone): the full bench:api already takes about
// six minutes against its hard limit, and this part needs PostgreSQL's binaries and haproxy,
// which a machine without them skips with a line saying so.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { runLoad, type LoadFigures, type LoadTarget } from "./load.ts";
import { commit, machine } from "./machine.ts";
import { benchmarksFile, writeMarkedSection, wroteTo } from "./output.ts";
import { freePort, startServer, stopServer, tempDir, type RunningServer } from "./processes.ts";
import { median } from "./report.ts";
import { FakeGateway } from "../../test/helpers/fake-gateway.ts";
import { startBlogFake, BLOG_TOKEN, type BlogFake } from "../../test/helpers/platform-fakes/blog.ts";
import { postgresUnavailable, startPostgres } from "../../test/helpers/postgres-cluster.ts";
import { openSse } from "../../test/helpers/sse-client.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SEED = 100;
const STREAM_WRITES = 200;
const FAILOVER_ROUNDS = 3;
const TOKEN = "bench-team-gateway-token-0123456789";
const HELD = "bench-team-held-run";
const LIST: LoadTarget = { label: `GET /api/tasks (${SEED} tasks)`, method: "GET", path: "/api/tasks" };

const log = (message: string) => console.error(`[bench:api --postgres] ${message}`);
const int = (n: number) => Math.round(n).toLocaleString("en-US");
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

interface Instance extends RunningServer {
  home: string;
  url: string;
  session: string;
}

/** A Muster server (what `npm start` runs) on a fresh home; on PostgreSQL when `databaseUrl` is given. */
async function startInstance(name: string, gateway: FakeGateway, workspace: string, databaseUrl?: string): Promise<Instance> {
  const home = tempDir("muster-bench-team-");
  // A held send stays in flight until its instance is killed.
  writeFileSync(join(home, "muster.config.json"), JSON.stringify({ config: { publishing: { requestTimeoutMs: 120_000 } } }));
  const port = await freePort();
  const server = await startServer({
    name,
    args: ["core/entry.js", "start"],
    env: {
      PORT: String(port),
      MUSTER_HOME: home,
      WORKSPACE_DIR: workspace,
      LOG_LEVEL: "warn",
      GATEWAY_URL: gateway.url,
      GATEWAY_TOKEN: TOKEN,
      VAULT_KEY: "bench team passphrase",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    port,
    cwd: ROOT,
    timeoutMs: 60_000,
  });
  const url = `http://127.0.0.1:${port}`;
  // Health answers before the plugins' start; any other request waits for it. A held cron run needs the gateway.
  await call(url, "GET", "/api/crons");
  await until(async () => (await call(url, "GET", "/api/health")).gateway?.state === "connected", `${name}'s gateway link`);
  return { ...server, home, url, session: readFileSync(join(home, "session-token"), "utf8").trim() };
}

/** A JSON request; throws on an unexpected status. */
async function call(url: string, method: string, path: string, body?: unknown, session?: string, expect = [200, 201, 202]): Promise<any> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (session) headers["x-session-token"] = session;
  const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function seed(url: string): Promise<void> {
  for (let i = 0; i < SEED; i++) await call(url, "POST", "/api/tasks", { title: `Seeded task ${i + 1}`, description: "A task stored before the benchmark", priority: "high", tags: "bench,seed" });
}

async function measure(name: string, port: number, pid?: number): Promise<LoadFigures> {
  log(`${name}: ${LIST.label}, ${CONNECTIONS} connections, ${SECONDS} s`);
  const figures = await runLoad(port, LIST, CONNECTIONS, SECONDS, pid);
  if (figures.non2xx > 0 || figures.errors > 0 || figures.timeouts > 0) throw new Error(`${name}: ${figures.non2xx} non-2xx, ${figures.errors} errors, ${figures.timeouts} timeouts (must all be 0)`);
  return figures;
}

/** haproxy in front of `ports` (team.md's configuration), in the foreground; null when haproxy is not installed. */
async function startBalancer(ports: number[]): Promise<{ port: number; child: ChildProcess } | null> {
  const port = await freePort();
  const config = join(tempDir("muster-bench-haproxy-"), "haproxy.cfg");
  writeFileSync(
    config,
    [
      "defaults",
      "  mode http",
      "  timeout connect 5s",
      "  timeout client 60s",
      "  timeout server 60s",
      "frontend muster",
      `  bind 127.0.0.1:${port}`,
      "  default_backend instances",
      "backend instances",
      "  balance roundrobin",
      ...ports.map((p, i) => `  server i${i} 127.0.0.1:${p}`),
      "",
    ].join("\n"),
  );
  const child = spawn("haproxy", ["-db", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
  const missing = await new Promise<boolean>((resolve) => {
    child.once("error", () => resolve(true));
    child.once("spawn", () => resolve(false));
  });
  if (missing) return null;
  balancers.add(child);
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200) return { port, child };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("haproxy did not answer within 5 s");
}

const balancers = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of balancers) child.kill("SIGKILL");
});

/** p50/p99 (ms) from a POST /api/tasks sent to `writer` to its work.task.created frame on a stream client of `reader`. */
async function streamLatency(writer: Instance, reader: Instance): Promise<{ p50: number; p99: number; max: number }> {
  const client = await openSse(reader.url);
  try {
    const times: number[] = [];
    for (let i = 0; i < STREAM_WRITES; i++) {
      const title = `stream probe ${i} ${Date.now()}`;
      const arrived = client.next((f) => f.data?.name === "work.task.created" && f.data.payload?.title === title, 10_000, title);
      const sent = performance.now();
      await call(writer.url, "POST", "/api/tasks", { title });
      await arrived;
      times.push(performance.now() - sent);
    }
    return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), max: Math.max(...times) };
  } finally {
    client.close();
  }
}

/**
 * One failover: a cron run (held by the gateway) and an outbox send (held by the platform) in
 * flight on `victim`, then kill -9; the milliseconds until `survivor` has settled each.
 */
async function failover(victim: Instance, survivor: Instance, gateway: FakeGateway, blog: BlogFake): Promise<{ cronMs: number; outboxMs: number }> {
  const held = gateway.requests("agent").filter((f) => f.params?.message === HELD).length;
  const job = (await call(victim.url, "POST", "/api/crons", { name: "Held", agentId: "main", cron: "0 9 * * *", message: HELD })).job;
  const run = (await call(victim.url, "PATCH", "/api/crons", { id: job.id, action: "run" })).run;
  const posts = blog.calls("POST /hook").length;
  blog.script("POST /hook", "hang");
  const draft = (await call(victim.url, "POST", "/api/content/drafts", { text: "Held by the platform", platforms: ["blog"] })).draft;
  const approval = (await call(victim.url, "POST", "/api/content/publish", { draftId: draft.id })).approval;
  await call(victim.url, "PATCH", `/api/approvals/${approval.id}`, { status: "approved" }, victim.session);
  const entry = (await call(victim.url, "GET", `/api/content/outbox?approvalId=${approval.id}`)).entries[0];
  await until(() => gateway.requests("agent").filter((f) => f.params?.message === HELD).length > held && blog.calls("POST /hook").length > posts, "both held on the victim");
  const killed = performance.now();
  victim.child.kill("SIGKILL");
  let cronMs = NaN;
  let outboxMs = NaN;
  await until(async () => {
    if (Number.isNaN(cronMs) && (await call(survivor.url, "GET", `/api/crons/runs?id=${job.id}`)).runs.find((r: { id: string }) => r.id === run.id)?.status === "interrupted") cronMs = performance.now() - killed;
    if (Number.isNaN(outboxMs) && (await call(survivor.url, "GET", `/api/content/outbox?approvalId=${approval.id}`)).entries[0]?.status === "unknown") outboxMs = performance.now() - killed;
    return !Number.isNaN(cronMs) && !Number.isNaN(outboxMs);
  }, `${entry.id} and the cron run settled by the survivor`, 60_000);
  return { cronMs, outboxMs };
}

async function until(check: () => boolean | Promise<boolean>, label: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function benchTeam(): Promise<void> {
  const unavailable = postgresUnavailable();
  if (unavailable) {
    log(`skipped: ${unavailable}`);
    return;
  }
  const started = Date.now();
  const loadBefore = loadavg()[0]!;
  const cluster = await startPostgres();
  const gateway = await FakeGateway.start({ token: TOKEN, agents: [{ id: "main" }], tickIntervalMs: 5_000 });
  gateway.onChat(async (_agent, message, _key, ctx) => {
    if (message === HELD) await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    return "done";
  });
  const blog = await startBlogFake();
  try {
    const databaseUrl = await cluster.createDatabase();
    const workspace = tempDir("muster-bench-team-ws-");

    log("one instance on SQLite, seeded with 100 tasks");
    const sqlite = await startInstance("muster on SQLite", gateway, tempDir("muster-bench-team-sqlite-ws-"));
    await seed(sqlite.url);
    const onSqlite = await measure("SQLite, one instance", sqlite.port, sqlite.child.pid);
    await stopServer(sqlite.child);

    log("one instance on PostgreSQL, seeded with 100 tasks");
    const a = await startInstance("muster A on PostgreSQL", gateway, workspace, databaseUrl);
    await seed(a.url);
    const onPostgres = await measure("PostgreSQL, one instance", a.port, a.child.pid);
    let b = await startInstance("muster B on PostgreSQL", gateway, workspace, databaseUrl);

    let balanced: { one: LoadFigures; two: LoadFigures } | null = null;
    const one = await startBalancer([a.port]);
    if (!one) log("skipped: haproxy not found (apt-get install haproxy): no two-instance req/s");
    else {
      const two = (await startBalancer([a.port, b.port]))!;
      balanced = { one: await measure("PostgreSQL, one instance behind haproxy", one.port), two: await measure("PostgreSQL, two instances behind haproxy", two.port) };
      for (const balancer of [one, two]) balancer.child.kill("SIGKILL");
    }

    log(`a write on A reaching a stream client of B, ${STREAM_WRITES} writes one after another`);
    const stream = await streamLatency(a, b);

    await call(a.url, "POST", "/api/vault", { name: "BLOG_API_KEY", value: JSON.stringify({ endpoint: `${blog.url}/hook`, token: BLOG_TOKEN }) }, a.session);
    const rounds: { cronMs: number; outboxMs: number }[] = [];
    let victim = a;
    for (let i = 0; i < FAILOVER_ROUNDS; i++) {
      log(`failover ${i + 1}/${FAILOVER_ROUNDS}: kill -9 of an instance with a cron run and an outbox send in flight`);
      rounds.push(await failover(victim, b, gateway, blog));
      log(`  settled by the survivor after ${int(rounds.at(-1)!.cronMs)} ms (cron run), ${int(rounds.at(-1)!.outboxMs)} ms (outbox send)`);
      // The survivor is the next victim; a fresh instance takes the dead one's place.
      victim = b;
      b = await startInstance(`muster ${i + 3} on PostgreSQL`, gateway, workspace, databaseUrl);
    }
    await Promise.all([stopServer(victim.child), stopServer(b.child)]);

    const report = renderTeam({ onSqlite, onPostgres, balanced, stream, rounds, loadBefore });
    console.log(`\n${report}\n`);
    const docs = benchmarksFile();
    writeMarkedSection(docs, "team", report);
    log(`${wroteTo(docs, "the team section")} (${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
  } finally {
    for (const child of balancers) child.kill("SIGKILL");
    await gateway.stop();
    await blog.close();
    await cluster.stop();
  }
}

function renderTeam(r: {
  onSqlite: LoadFigures;
  onPostgres: LoadFigures;
  balanced: { one: LoadFigures; two: LoadFigures } | null;
  stream: { p50: number; p99: number; max: number };
  rounds: { cronMs: number; outboxMs: number }[];
  loadBefore: number;
}): string {
  const row = (what: string, f: LoadFigures) => `| ${what} | ${int(f.rpsMean)} | ${int(f.rpsMedian)} | ${f.p50Ms} | ${f.p99Ms} | ${f.cpuUsPerRequest === null ? "n/a" : int(f.cpuUsPerRequest)} |`;
  const ratio = r.balanced ? r.balanced.two.rpsMean / r.balanced.one.rpsMean : null;
  const cron = median(r.rounds.map((x) => x.cronMs));
  const outbox = median(r.rounds.map((x) => x.outboxMs));
  const worst = Math.max(...r.rounds.flatMap((x) => [x.cronMs, x.outboxMs]));
  const pass = (ok: boolean) => (ok ? "pass ✔" : "**FAIL ✘**");
  return [
    "## Team mode (issue 25): PostgreSQL and two instances",
    "",
    `Command: \`npm run bench:api -- --postgres --record\`. Machine: ${machine()}. Measured ${new Date().toISOString().replace(/\.\d+Z$/, "Z")} at commit ${commit()}.`,
    "",
    `Servers are \`node core/entry.js start\` children (LOG_LEVEL=warn, fresh homes, the fake gateway connected); PostgreSQL is a throwaway cluster of Debian's binaries started by the bench ` +
      "(`fsync=off`, as the tests run it), one database for the PostgreSQL instances, one shared workspace. " +
      `GET runs: autocannon, ${CONNECTIONS} connections, ${SECONDS} s after a 1 s warm-up, from the bench process, ${SEED} tasks stored. ` +
      "Two instances are compared with one behind the same haproxy (Debian's, team.md's configuration without health checks), so both pay for the balancer. " +
      `Everything (servers, PostgreSQL, haproxy, the load generator) shares the machine's ${availableParallelism()} CPUs with other work: 1-minute load average ${r.loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end. ` +
      "Two instances can only serve more than one where CPUs are left over; on 2 shared CPUs the load generator and PostgreSQL already take a share, so the ratio here says little about a team's machines.",
    "",
    "| setup | req/s mean | req/s median | p50 ms | p99 ms | server CPU µs/request |",
    "|---|---:|---:|---:|---:|---:|",
    row("SQLite, one instance (direct)", r.onSqlite),
    row("PostgreSQL, one instance (direct)", r.onPostgres),
    ...(r.balanced ? [row("PostgreSQL, one instance behind haproxy", r.balanced.one), row("PostgreSQL, two instances behind haproxy", r.balanced.two)] : ["| PostgreSQL behind haproxy | skipped: haproxy not found | | | | |"]),
    "",
    `A write on one instance reaching a stream client of the other: ${STREAM_WRITES} \`POST /api/tasks\` on A one after another, each timed from its send to its \`work.task.created\` frame on an SSE client of B: ` +
      `p50 ${r.stream.p50.toFixed(1)} ms, p99 ${r.stream.p99.toFixed(1)} ms, max ${r.stream.max.toFixed(1)} ms.`,
    "",
    `Failover, ${r.rounds.length} rounds: a cron run (held by the gateway) and an outbox send (held by the platform) in flight on one instance, which is killed with SIGKILL; ` +
      "timed from the kill until the survivor has settled each (`interrupted`, `unknown`: never re-sent). An instance counts as dead 5 s after its last heartbeat and every instance sweeps every 2 s: " +
      `cron run ${r.rounds.map((x) => int(x.cronMs)).join(", ")} ms (median ${int(cron)}); outbox send ${r.rounds.map((x) => int(x.outboxMs)).join(", ")} ms (median ${int(outbox)}).`,
    "",
    "| target (issue 25) | goal | measured | |",
    "|---|---|---|---|",
    `| GET /api/tasks req/s, two instances against one (behind haproxy) | ≥ 1.6x | ${ratio === null ? "skipped: haproxy not found" : `${ratio.toFixed(2)}x`} | ${ratio === null ? "" : pass(ratio >= 1.6)} |`,
    `| a write on one instance on a stream client of the other, p99 | < 100 ms | ${r.stream.p99.toFixed(1)} ms | ${pass(r.stream.p99 < 100)} |`,
    `| failover of a cron run or outbox send after kill -9 (worst of ${r.rounds.length * 2}) | < 10 s | ${int(worst)} ms | ${pass(worst < 10_000)} |`,
    `| PostgreSQL against SQLite, one instance, GET /api/tasks req/s | (no target) | ${(r.onPostgres.rpsMean / r.onSqlite.rpsMean).toFixed(2)}x | |`,
    "",
  ].join("\n");
}
