// The crons plugin's home-page panel (CONSOLE_PANELS): the jobs whose last run did not succeed
// (error, or skipped: over budget, still running), each linked to its page on the Schedules
// page, so a failed scheduled run is in the "what needs the human now" list.
import { html, pageHref, render, muster, useStylesheet, Badge } from "@muster/console";
import type { CronJob } from "./schedule-parts.ts";

function FailedRuns({ jobs }: { jobs: readonly CronJob[] }) {
  const failed = jobs.filter((job) => job.lastStatus === "error" || job.lastStatus === "skipped");
  if (failed.length === 0) return html`<p class="empty">No failed runs: every job's last run succeeded or is still to come.</p>`;
  return html`<ul class="failed-runs">${failed.map(
    (job) => html`<li key=${job.id} data-status=${job.lastStatus}>
      <a href=${pageHref("schedules", job.id)}>${job.name}</a>
      <${Badge} tone=${job.lastStatus === "error" ? "bad" : "warn"}>${job.lastStatus}<//>
      ${job.lastError ? html` <code>${job.lastError}</code>` : null}
    </li>`,
  )}</ul>`;
}

export default function mountFailedRunsPanel(element: HTMLElement) {
  useStylesheet("/dashboard/plugins/crons/schedules.css");
  return {
    refresh: async () => {
      const { jobs } = await muster.getCrons();
      render(html`<${FailedRuns} jobs=${jobs} />`, element);
    },
    unmount: () => render(null, element),
  };
}
