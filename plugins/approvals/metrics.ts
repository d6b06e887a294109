import { contributeWith } from "@muster/plugin";
import { METRIC_SOURCES } from "../metrics/tokens.ts";
import { APPROVALS } from "./tokens.ts";

/**
 * The queue's length on `GET /metrics` (when the metrics plugin is loaded). A failing read
 * (the database is busy) leaves the family out of that scrape; the metrics plugin logs it.
 */
export const approvalMetrics = contributeWith(METRIC_SOURCES, {
  deps: { approvals: APPROVALS },
  create: ({ approvals }) => ({
    collect: async () => {
      const { pendingTotal } = await approvals.list({ historyLimit: 1, pendingLimit: 1, pendingOffset: 0 });
      return [{ name: "muster_approvals_pending", help: "Approvals waiting for a human decision.", type: "gauge", samples: [{ value: pendingTotal }] }];
    },
  }),
});
