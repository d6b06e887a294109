// Crew benchmarks (issue 12, Speed): GET /api/usage over 1,000,000 cost events (p99 < 50 ms;
// served from aggregates) and 1,000 cron jobs rebuilt at start-up (< 200 ms, from the
// "cron schedules rebuilt" log line's rebuildMs). Run: node --conditions=source --import tsx
// scripts/bench/usage-crons.ts  (BENCH_USAGE_EVENTS and BENCH_CRON_JOBS shorten it).
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { startTestHost, removeHome } from "../../test/helpers/start-test-host.ts";
import { cronsPlugin } from "../../plugins/crons/index.ts";
import { usagePlugin } from "../../plugins/usage/index.ts";

const EVENTS = Number(process.env.BENCH_USAGE_EVENTS ?? 1_000_000);
const JOBS = Number(process.env.BENCH_CRON_JOBS ?? 1_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const AGENTS = 50;
const plugins = [usagePlugin, cronsPlugin];

const p99 = (samples: number[]) => samples.sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))]!;

async function usage(): Promise<void> {
  const h = await startTestHost({ plugins });
  // Seed through SQL in one transaction (1M HTTP posts would measure the seeding); the
  // aggregates are built with the same arithmetic the insert path uses.
  const db = new BetterSqlite3(join(h.home, "muster.db"));
  const now = Date.now();
  const insert = db.prepare("INSERT INTO usage_cost_events VALUES (?, ?, 'claude-sonnet-4-6', 'task', 1000, 200, 1, 1, NULL, ?)");
  db.transaction(() => {
    for (let i = 0; i < EVENTS; i++) insert.run(`e${i}`, `agent-${i % AGENTS}`, new Date(now - (i % (30 * 96)) * 900_000).toISOString());
    db.exec(`INSERT INTO usage_rollup SELECT agentId, CAST(strftime('%s', timestamp) AS INTEGER) / 900, sum(inputTokens), sum(outputTokens), sum(estimatedCostCents), count(*) FROM usage_cost_events GROUP BY 1, 2`);
    db.exec("INSERT INTO usage_totals SELECT agentId, count(*), sum(estimatedCostCents) FROM usage_cost_events GROUP BY 1");
  })();
  db.close();
  // Warm-up requests (statement preparation, JIT) are not counted.
  for (let i = 0; i < 20; i++) await (await fetch(`${h.url}/api/usage`)).arrayBuffer();
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    const r = await fetch(`${h.url}/api/usage`);
    await r.arrayBuffer();
    samples.push(performance.now() - t);
  }
  const median = [...samples].sort((a, b) => a - b)[samples.length >> 1]!;
  console.log(`GET /api/usage median ${median.toFixed(1)} ms; ${EVENTS.toLocaleString("en-US")} events: p99 ${p99(samples).toFixed(1)} ms (${REQUESTS} sequential requests)`);
  await h.stop();
  removeHome(h.home);
}

async function crons(): Promise<void> {
  const h = await startTestHost({ plugins });
  const home = h.home;
  for (let i = 0; i < JOBS; i++) {
    const r = await h.json("/api/crons", { method: "POST", body: { name: `job ${i}`, agentId: `agent-${i % AGENTS}`, cron: `${i % 60} ${i % 24} * * ${i % 7}`, message: "bench", timezone: i % 2 ? "Europe/Paris" : "America/New_York" } });
    if (r.status !== 201) throw new Error(`create ${i}: ${JSON.stringify(r.body)}`);
  }
  await h.stop();
  // The plugin logs its rebuild time; read it from the log stream.
  let rebuildMs: number | undefined;
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const m = /"rebuildMs":(\d+)/.exec(String(chunk));
    if (m) rebuildMs = Number(m[1]);
    return m ? true : (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
  const again = await startTestHost({ plugins, home, config: { logLevel: "info" } });
  process.stdout.write = write;
  console.log(`${JOBS.toLocaleString("en-US")} cron jobs rebuilt at start-up: ${rebuildMs ?? "?"} ms`);
  await again.stop();
  removeHome(home);
}

await usage();
await crons();
