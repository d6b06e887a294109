import { extensionPoint, token } from "@muster/plugin";
import type { MetricFamily } from "./services/exposition.ts";

/** Renders the current metrics in the Prometheus text exposition format 0.0.4. */
export interface MetricsExporter {
  render(): Promise<string>;
}

export const METRICS = token<MetricsExporter>("metrics.exporter");

export type { MetricFamily, MetricType, Sample } from "./services/exposition.ts";

/** Families a plugin adds to `GET /metrics`; names should start with `muster_<plugin>_`. */
export interface MetricSource {
  /** The families as of now; called on every scrape, so keep it cheap. */
  collect(): MetricFamily[] | Promise<MetricFamily[]>;
}

/**
 * Where plugins contribute metric families (`contributeWith(METRIC_SOURCES, { deps, create })`);
 * the metrics plugin imports no other plugin.
 */
export const METRIC_SOURCES = extensionPoint<MetricSource>("metrics.sources");
