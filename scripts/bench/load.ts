// The load generator of `npm run bench:api`: autocannon, run inside the bench process
// (the servers are separate child processes), and the figures the report needs.
import { createRequire } from "node:module";
import { cpuSplitSeconds } from "./processes.ts";
import { median } from "./report.ts";

export interface LoadTarget {
  label: string;
  method: "GET" | "POST" | "PATCH";
  path: string;
  body?: string;
  /** A different path and body per request (card moves: each request moves another card). */
  next?: () => { path: string; body: string };
}

export interface LoadFigures {
  /** Requests per second: mean and median of the per-second samples. */
  rpsMean: number;
  rpsMedian: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /**
   * CPU time (user + system) the server process used per request during the measured run:
   * the figure least disturbed by other processes on a shared machine.
   */
  cpuUsPerRequest: number | null;
  /** Of `cpuUsPerRequest`, the time spent in the kernel (system time: the sockets' reads and writes, mostly). */
  systemUsPerRequest: number | null;
  /** Start and end of the measured run, microseconds of CLOCK_MONOTONIC (a --cpu-prof profile's clock). */
  window: [number, number];
}

interface AutocannonResult {
  requests: { mean: number; p50: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: Record<string, unknown>, cb: (err: Error | null, result: AutocannonResult) => void) => unknown;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/**
 * Rounds of one endpoint on one server as one row: the median of each figure (the run with the
 * median req/s gives the profile window); error counts are summed, so a failure anywhere shows.
 */
export function medianFigures(runs: LoadFigures[]): LoadFigures {
  const mid = (pick: (f: LoadFigures) => number) => median(runs.map(pick));
  const sum = (pick: (f: LoadFigures) => number) => runs.reduce((total, f) => total + pick(f), 0);
  const cpu = runs.map((f) => f.cpuUsPerRequest).filter((v): v is number => v !== null);
  const byRps = [...runs].sort((a, b) => a.rpsMean - b.rpsMean);
  return {
    rpsMean: mid((f) => f.rpsMean),
    rpsMedian: mid((f) => f.rpsMedian),
    p50Ms: mid((f) => f.p50Ms),
    p99Ms: mid((f) => f.p99Ms),
    requests: mid((f) => f.requests),
    non2xx: sum((f) => f.non2xx),
    errors: sum((f) => f.errors),
    timeouts: sum((f) => f.timeouts),
    cpuUsPerRequest: cpu.length === runs.length ? mid((f) => f.cpuUsPerRequest!) : null,
    systemUsPerRequest: runs.every((f) => f.systemUsPerRequest !== null) ? mid((f) => f.systemUsPerRequest!) : null,
    window: byRps[Math.floor(byRps.length / 2)]!.window,
  };
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

function once(options: Record<string, unknown>): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * Runs `connections` keep-alive connections for `seconds`, after a 1 s warm-up run at the
 * same concurrency (JIT, caches) that is checked for errors but not reported.
 */
export async function runLoad(port: number, target: LoadTarget, connections: number, seconds: number, serverPid?: number): Promise<LoadFigures> {
  const options: Record<string, unknown> = {
    url: `http://127.0.0.1:${port}${target.path}`,
    method: target.method,
    connections,
    timeout: 10,
  };
  if (target.body !== undefined) {
    options.body = target.body;
    options.headers = { "content-type": "application/json" };
  }
  if (target.next) {
    const next = target.next;
    options.headers = { "content-type": "application/json" };
    options.requests = [{ method: target.method, setupRequest: (req: Record<string, unknown>) => ({ ...req, ...next() }) }];
  }
  const warm = await once({ ...options, duration: 1 });
  const cpuBefore = cpuSplitSeconds(serverPid);
  const from = monotonicUs();
  const result = await once({ ...options, duration: seconds });
  const to = monotonicUs();
  const cpuAfter = cpuSplitSeconds(serverPid);
  const perRequest = (pick: (cpu: { user: number; system: number }) => number) =>
    cpuBefore && cpuAfter && result.requests.total > 0 ? ((pick(cpuAfter) - pick(cpuBefore)) * 1e6) / result.requests.total : null;
  return {
    rpsMean: result.requests.mean,
    rpsMedian: result.requests.p50,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx + warm.non2xx,
    errors: result.errors + warm.errors,
    timeouts: result.timeouts + warm.timeouts,
    window: [from, to],
    cpuUsPerRequest: perRequest((cpu) => cpu.user + cpu.system),
    systemUsPerRequest: perRequest((cpu) => cpu.system),
  };
}
