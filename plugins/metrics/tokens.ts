import { extensionPoint, token, type MetricSource } from "@muster/plugin";
import type { MetricFamily } from "./services/exposition.ts";

/** Renders the current metrics in the Prometheus text exposition format 0.0.4. */
export interface MetricsExporter {
  render(): Promise<string>;
}

export const METRICS = token<MetricsExporter>("metrics.exporter");

export type { MetricFamily, MetricType, Sample } from "./services/exposition.ts";

/** Families a plugin adds to `GET /metrics`; the shape is published by @muster/plugin so third-party packages get it typed. */
export type { MetricSource };

/**
 * Where plugins contribute metric families (`contributeWith(METRIC_SOURCES, { deps, create })`);
 * the metrics plugin imports no other plugin.
 */
export const METRIC_SOURCES = extensionPoint<MetricSource>("metrics.sources");
