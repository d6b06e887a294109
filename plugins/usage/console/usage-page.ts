// The Usage page (`/console/usage`): today's tokens and cost against each agent's daily budget
// (set and edited here), and cost or tokens per day by agent and by model as charts with their
// figures as tables. Live on `usage.*`. docs/console/usage.md.
import { html, mountComponent, useStylesheet, PageHeader } from "@muster/console";
import { TodayAndBudgets } from "./usage-budgets.ts";
import { UsageCharts } from "./usage-charts.ts";

function UsagePage() {
  useStylesheet("/dashboard/plugins/usage/usage.css");
  return html`<div class="page usage" data-page="usage">
    <${PageHeader} title="Usage" description="Tokens and estimated cost recorded by chat, councils, crons and dispatch, priced with the configured price table." />
    <div class="stack">
      <${TodayAndBudgets} />
      <${UsageCharts} />
    </div>
  </div>`;
}

export default mountComponent(UsagePage);
