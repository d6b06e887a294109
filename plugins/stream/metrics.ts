import { contributeWith } from "@muster/plugin";
import { METRIC_SOURCES } from "../metrics/tokens.ts";
import { STREAM } from "./tokens.ts";

/** Connected and dropped stream clients on `GET /metrics` (when the metrics plugin is loaded). */
export const streamMetrics = contributeWith(METRIC_SOURCES, {
  deps: { stream: STREAM },
  create: ({ stream }) => ({
    collect: () => {
      const stats = stream.stats();
      return [
        { name: "muster_sse_clients", help: "Clients connected to the live stream (GET /api/sse).", type: "gauge", samples: [{ value: stats.clients }] },
        { name: "muster_sse_slow_clients_dropped_total", help: "Stream clients disconnected for falling too far behind.", type: "counter", samples: [{ value: stats.droppedSlowClients }] },
      ];
    },
  }),
});
