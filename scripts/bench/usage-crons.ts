// The usage and cron scenarios of `npm run bench:api` (issue 12, Speed), each against a fresh
// Muster child process (`node core/main.ts start`, every built-in plugin):
// - GET /api/usage over 1,000,000 cost events, p99 < 50 ms (served from aggregates). The
//   events are seeded with SQL into the child's own database while it is stopped (a million
//   HTTP posts would measure the seeding), then the child is started again and loaded over
//   HTTP from the bench process.
// - 1,000 cron jobs rebuilt at start-up < 200 ms: the jobs are created through POST /api/crons,
//   the child is restarted on the same home, and the figure is the crons plugin's own
//   `rebuildMs` from its "cron schedules rebuilt" log line.
// BENCH_USAGE_EVENTS and BENCH_CRON_JOBS shorten them for a quick try.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import type { LoadFigures, LoadTarget } from "./load.ts";
import { freePort, removeTempDir, startServer, stopServer, tempDir, type RunningServer } from "./processes.ts";

export const USAGE_EVENTS = Number(process.env.BENCH_USAGE_EVENTS ?? 1_000_000);
export const CRON_JOBS = Number(process.env.BENCH_CRON_JOBS ?? 1_000);
/** Spending spread over this many agents (the summary's `byAgent` has one entry each) and days. */
const AGENTS = 50;
const DAYS = 30;
const QUARTER_HOUR_MS = 900_000;

export const USAGE_SUMMARY: LoadTarget = { label: `GET /api/usage (${USAGE_EVENTS.toLocaleString("en-US")} cost events, ${AGENTS} agents)`, method: "GET", path: "/api/usage" };

type Log = (message: string) => void;

/** A Muster child on `home`, with `logLevel` (the cron figure needs `info`). */
async function startMuster(cwd: string, home: string, name: string, logLevel = "warn"): Promise<RunningServer> {
  const port = await freePort();
  return startServer({
    name,
    args: ["core/entry.js", "start"],
    env: { PORT: String(port), MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), LOG_LEVEL: logLevel },
    port,
    cwd,
    timeoutMs: 20_000,
  });
}

/**
 * One transaction of plain SQL into the usage plugin's tables: the events, plus the rollup
 * (per agent per UTC quarter hour) and totals rows computed with the same arithmetic the
 * insert path uses, so the child reads exactly what a million POSTs would have left.
 */
function seedCostEvents(dbFile: string, count: number): void {
  const db = new BetterSqlite3(dbFile);
  try {
    const now = Date.now();
    const insert = db.prepare("INSERT INTO usage_cost_events VALUES (?, ?, 'anthropic/claude-sonnet-4-6', 'task', 1000, 200, 1, 1, NULL, ?)");
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(`e${i}`, `agent-${i % AGENTS}`, new Date(now - (i % (DAYS * 96)) * QUARTER_HOUR_MS).toISOString());
      db.exec(
        "INSERT INTO usage_rollup SELECT agentId, CAST(strftime('%s', timestamp) AS INTEGER) / 900, sum(inputTokens), sum(outputTokens), sum(estimatedCostCents), count(*) FROM usage_cost_events GROUP BY 1, 2",
      );
      db.exec("INSERT INTO usage_totals SELECT agentId, count(*), sum(estimatedCostCents) FROM usage_cost_events GROUP BY 1");
    })();
  } finally {
    db.close();
  }
}

/** Runs the usage scenario; `measure` is the api bench's autocannon run (fails on any non-2xx). */
export async function benchUsageSummary(
  measure: (server: RunningServer, target: LoadTarget) => Promise<LoadFigures>,
  cwd: string,
  log: Log,
): Promise<{ figures: LoadFigures; totalEvents: number }> {
  const home = tempDir("muster-bench-usage-");
  try {
    // A first start creates the schema (migrations); the seeding happens while it is stopped.
    // (Health answers before the plugins load and migrate; any other request waits at the
    // start gate, so one answered means every table exists.)
    const first = await startMuster(cwd, home, "muster-usage");
    const schema = await fetch(`http://127.0.0.1:${first.port}/api/usage`);
    if (schema.status !== 200) throw new Error(`GET /api/usage answered ${schema.status} after the first start: ${await schema.text()}`);
    await stopServer(first.child);
    log(`usage: seeding ${USAGE_EVENTS.toLocaleString("en-US")} cost events with SQL`);
    const seeded = performance.now();
    seedCostEvents(join(home, "muster.db"), USAGE_EVENTS);
    log(`usage: seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    const server = await startMuster(cwd, home, "muster-usage");
    try {
      const summary = (await (await fetch(`http://127.0.0.1:${server.port}/api/usage`)).json()) as { allTime?: { totalEvents?: number } };
      const totalEvents = summary.allTime?.totalEvents ?? -1;
      if (totalEvents !== USAGE_EVENTS) throw new Error(`GET /api/usage counts ${totalEvents} events, expected ${USAGE_EVENTS}`);
      return { figures: await measure(server, USAGE_SUMMARY), totalEvents };
    } finally {
      await stopServer(server.child);
    }
  } finally {
    removeTempDir(home);
  }
}

function orgFile(): string {
  const lines = ["org:", "  name: Bench", "  owner: Bench", "  agents:"];
  for (let i = 0; i < AGENTS; i++) lines.push(`    agent-${i}: {id: agent-${i}, tier: 3, role: worker}`);
  return `${lines.join("\n")}\n`;
}

/** Resolves with the `rebuildMs` of the crons plugin's start-up log line. */
async function rebuildMsFrom(server: RunningServer, timeoutMs = 10_000): Promise<number> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const line = server.output().split("\n").find((l) => l.includes("cron schedules rebuilt"));
    const ms = line && /"rebuildMs":(\d+)/.exec(line)?.[1];
    if (ms) return Number(ms);
  }
  throw new Error(`no "cron schedules rebuilt" line with rebuildMs in the child's log:\n${server.output()}`);
}

/** Runs the cron scenario: creates the jobs over HTTP, restarts, reads the rebuild time. */
export async function benchCronRebuild(cwd: string, log: Log): Promise<{ jobs: number; rebuildMs: number }> {
  const home = tempDir("muster-bench-crons-");
  try {
    // The jobs' agents must be known: the organisation file names them.
    mkdirSync(join(home, "ws", "company"), { recursive: true });
    writeFileSync(join(home, "ws", "company", "org_structure.yaml"), orgFile());
    const first = await startMuster(cwd, home, "muster-crons");
    try {
      log(`crons: creating ${CRON_JOBS.toLocaleString("en-US")} jobs through POST /api/crons`);
      const create = async (i: number) => {
        const res = await fetch(`http://127.0.0.1:${first.port}/api/crons`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: `job ${i}`, agentId: `agent-${i % AGENTS}`, cron: `${i % 60} ${i % 24} * * ${i % 7}`, message: "bench", timezone: i % 2 ? "Europe/Paris" : "America/New_York" }),
        });
        if (res.status !== 201) throw new Error(`POST /api/crons ${i} answered ${res.status}: ${await res.text()}`);
      };
      for (let i = 0; i < CRON_JOBS; i += 10) await Promise.all(Array.from({ length: Math.min(10, CRON_JOBS - i) }, (_, j) => create(i + j)));
    } finally {
      await stopServer(first.child);
    }
    const again = await startMuster(cwd, home, "muster-crons", "info");
    try {
      return { jobs: CRON_JOBS, rebuildMs: await rebuildMsFrom(again) };
    } finally {
      await stopServer(again.child);
    }
  } finally {
    removeTempDir(home);
  }
}
