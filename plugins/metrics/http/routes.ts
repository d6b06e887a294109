import { defineRoutes, z } from "@muster/plugin";
import { METRICS } from "../tokens.ts";
import { EXPOSITION_CONTENT_TYPE } from "../services/exposition.ts";

/** `GET /metrics`. */
export const metricsRoutes = defineRoutes({
  deps: { exporter: METRICS },
  mount: (router, { exporter }) =>
    router.get(
      "/metrics",
      {
        summary: "Metrics in the Prometheus text exposition format 0.0.4",
        description:
          "Request counts and latency histograms by route template and status, live-stream clients, gateway state, search index size, pending approvals, process memory. " +
          "Same access as the API: open on a loopback bind, `Authorization: Bearer <MUSTER_API_TOKEN>` otherwise.",
        query: z.strictObject({}),
        raw: true,
        tags: ["metrics"],
      },
      async ({ koa }) => {
        const text = await exporter.render();
        koa.status = 200;
        koa.type = EXPOSITION_CONTENT_TYPE;
        koa.body = text;
      },
    ),
});
