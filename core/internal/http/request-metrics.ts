// Counts answered requests and their latency by method, route template and status, for
// `GET /metrics`. Kept in memory: the counters start at zero with each process, as
// Prometheus counters may.
import type { Context } from "koa";
import type { HttpMetrics, HttpMetricsSnapshot } from "../../plugin-api/http-metrics.ts";

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
export const UNMATCHED_ROUTE = "(unmatched)";

interface Histogram {
  method: string;
  route: string;
  counts: number[]; // per bucket, not cumulative
  sum: number;
  count: number;
}

export interface RequestMetrics extends HttpMetrics {
  /**
   * Counts one answered request that began at `started` (`performance.now()`); called by the
   * app's outer middleware outside the error boundary, so it sees the final status.
   */
  record(ctx: Context, started: number): void;
  /** `record` for an answer written without a Koa context (lean-lane.ts's plain answers): the route template it answered. */
  recordAnswer(method: string, route: string, status: number, started: number): void;
}

export function createRequestMetrics(): RequestMetrics {
  const requests = new Map<string, { method: string; route: string; status: number; count: number }>();
  const durations = new Map<string, Histogram>();

  function observe(method: string, route: string, status: number, seconds: number) {
    const requestKey = `${method} ${status} ${route}`;
    const request = requests.get(requestKey) ?? requests.set(requestKey, { method, route, status, count: 0 }).get(requestKey)!;
    request.count++;
    const durationKey = `${method} ${route}`;
    const histogram = durations.get(durationKey) ?? durations.set(durationKey, { method, route, counts: BUCKETS.map(() => 0), sum: 0, count: 0 }).get(durationKey)!;
    let bucket = 0;
    while (bucket < BUCKETS.length && !(seconds <= BUCKETS[bucket]!)) bucket++;
    if (bucket < BUCKETS.length) histogram.counts[bucket]!++;
    histogram.sum += seconds;
    histogram.count++;
  }

  return {
    record(ctx, started) {
      // The template the router matched (`/api/tasks/:id`), never the raw path: raw paths
      // would let any client create unbounded series. A stream counts until its headers go.
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const route = typeof matched === "string" ? matched : UNMATCHED_ROUTE;
      const method = METHODS.has(ctx.method) ? ctx.method : "OTHER";
      observe(method, route, ctx.status, (performance.now() - started) / 1000);
    },
    recordAnswer(method, route, status, started) {
      observe(METHODS.has(method) ? method : "OTHER", route, status, (performance.now() - started) / 1000);
    },
    snapshot(): HttpMetricsSnapshot {
      return {
        bucketBounds: BUCKETS,
        requests: [...requests.values()].map((r) => ({ ...r })),
        durations: [...durations.values()].map((h) => {
          let running = 0;
          return { method: h.method, route: h.route, cumulativeCounts: h.counts.map((c) => (running += c)), sumSeconds: h.sum, count: h.count };
        }),
      };
    },
  };
}
