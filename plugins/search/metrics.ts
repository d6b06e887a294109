import { contributeWith } from "@muster/plugin";
import { METRIC_SOURCES } from "../metrics/tokens.ts";
import { SEARCH } from "./tokens.ts";

/** The index's size and readiness on `GET /metrics` (when the metrics plugin is loaded). */
export const searchMetrics = contributeWith(METRIC_SOURCES, {
  deps: { index: SEARCH },
  create: ({ index }) => ({
    collect: () => {
      const stats = index.stats();
      return [
        { name: "muster_search_index_files", help: "Workspace files in the full-text search index.", type: "gauge", samples: [{ value: stats.totalFiles }] },
        { name: "muster_search_index_ready", help: "1 once the search index has loaded.", type: "gauge", samples: [{ value: stats.state === "ready" ? 1 : 0 }] },
      ];
    },
  }),
});
