import { definePlugin } from "@muster/plugin";
import { metricsRoutes } from "./http/routes.ts";
import { registerMetricsServices } from "./services/register.ts";
import { METRIC_SOURCES } from "./tokens.ts";

/** `GET /metrics`: Prometheus text format (docs/metrics.md). */
export const metricsPlugin = definePlugin({
  id: "metrics",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/metrics"],
  // Other plugins add their families here (SSE clients, search index size, pending approvals).
  extensionPoints: [METRIC_SOURCES],
  register: registerMetricsServices,
  routes: metricsRoutes,
});

export default metricsPlugin;
