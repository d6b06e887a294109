import { definePlugin } from "@muster/plugin";
import { mountMetricsRoutes } from "./http/routes.ts";
import { registerMetricsServices } from "./services/register.ts";

/** `GET /metrics`: Prometheus text format (docs/metrics.md). */
export const metricsPlugin = definePlugin({
  id: "metrics",
  version: "1.0.0",
  host: "^1.0.0",
  // Each adds its families when loaded: SSE clients, search index size, pending approvals.
  optionalDependsOn: ["stream", "search", "approvals"],
  paths: ["/metrics"],
  register: registerMetricsServices,
  routes: mountMetricsRoutes,
});

export default metricsPlugin;
