/**
 * What the host counts about the HTTP requests it answers, for `GET /metrics` (the metrics
 * plugin renders it). Routes are the route templates (`/api/tasks/:id`), never raw paths,
 * so the number of series stays bounded whatever paths clients send.
 */
export interface HttpRequestSeries {
  method: string;
  /** The matched route template, or `(unmatched)` for requests no route answered. */
  route: string;
  status: number;
  count: number;
}

export interface HttpDurationSeries {
  method: string;
  route: string;
  /** Requests that took at most `bucketBounds[i]` seconds (cumulative, like Prometheus' `le`). */
  cumulativeCounts: number[];
  sumSeconds: number;
  count: number;
}

export interface HttpMetricsSnapshot {
  /** Upper bounds of the latency buckets, in seconds, ascending (the `+Inf` bucket is `count`). */
  bucketBounds: readonly number[];
  requests: HttpRequestSeries[];
  durations: HttpDurationSeries[];
}

export interface HttpMetrics {
  snapshot(): HttpMetricsSnapshot;
}
