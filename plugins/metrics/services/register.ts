import { defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { METRIC_SOURCES, METRICS } from "../tokens.ts";
import { PrometheusExporter } from "./metrics-exporter.ts";

/** Provides the exporter: the host's families and those other plugins contribute. */
export function registerMetricsServices(ctx: PluginContext): void {
  ctx.provide(
    defineService({
      token: METRICS,
      deps: { http: hostTokens.httpMetrics, gateway: hostTokens.gateway, info: hostTokens.info, logger: hostTokens.logger, sources: METRIC_SOURCES.contributions },
      create: (deps) => new PrometheusExporter(deps),
    }),
  );
}
