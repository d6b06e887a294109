import { defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { APPROVALS } from "../../approvals/tokens.ts";
import { SEARCH } from "../../search/tokens.ts";
import { STREAM } from "../../stream/tokens.ts";
import { METRICS } from "../tokens.ts";
import { PrometheusExporter } from "./metrics-exporter.ts";

/** Provides the exporter; each optional plugin adds its families when present. */
export function registerMetricsServices(ctx: PluginContext): void {
  ctx.provide(
    defineService({
      token: METRICS,
      deps: { http: hostTokens.httpMetrics, gateway: hostTokens.gateway, info: hostTokens.info, logger: hostTokens.logger },
      optionalDeps: { stream: STREAM, search: SEARCH, approvals: APPROVALS },
      create: (deps) => new PrometheusExporter(deps),
    }),
  );
}
