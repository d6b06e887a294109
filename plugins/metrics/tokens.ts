import { token } from "@muster/plugin";

/** Renders the current metrics in the Prometheus text exposition format 0.0.4. */
export interface MetricsExporter {
  render(): Promise<string>;
}

export const METRICS = token<MetricsExporter>("metrics.exporter");
