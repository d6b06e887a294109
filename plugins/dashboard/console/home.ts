// The home page (`/`): what needs the human now. The attention panels are contributions
// (pending approvals, agents that are stuck or offline, failed sends and cron runs, today's
// cost against budgets: each from its plugin), beside the live feed.
import { html } from "./html.ts";
import { ActivityFeed } from "./feed.ts";
import { Panels } from "./panels.ts";
import type { ListedPanel } from "./pages.ts";
import { PageHeader } from "./ui/basics.ts";

export function Home({ panels }: { panels: readonly ListedPanel[] }) {
  return html`<div class="page" data-page="home">
    <${PageHeader} title="Home" description="What needs you now, and what the crew is doing." />
    <div class="home-grid">
      <div class="primary"><${Panels} panels=${panels} /></div>
      <aside class="secondary" aria-label="Live activity"><${ActivityFeed} /></aside>
    </div>
  </div>`;
}
