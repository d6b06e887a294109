// The home page's "Failed cron runs" panel: among the latest runs, those that ended in an
// error or were interrupted, with the job's name and the error.
import { html, muster, render, Time } from "@muster/console";

const SCANNED = 100;
const SHOWN = 5;
const FAILED = new Set(["error", "interrupted"]);

export default function mountFailedRunsPanel(element: HTMLElement) {
  return async function refresh() {
    const [{ runs }, { jobs }] = await Promise.all([muster.getCronsRuns({ query: { limit: SCANNED } }), muster.getCrons()]);
    const names = new Map(jobs.map((job) => [job.id, job.name]));
    const failed = runs.filter((run) => FAILED.has(run.status));
    render(
      failed.length === 0
        ? html`<p class="empty">No failed run among the latest ${SCANNED}.</p>`
        : html`<p class="meta"><strong>${failed.length} failed</strong> among the latest ${runs.length} runs</p>
            <ul class="history-list attention-list">${failed.slice(0, SHOWN).map(
              (run) => html`<li key=${run.id} data-status=${run.status}>
                <strong>${names.get(run.jobId) ?? run.jobId}</strong>
                <span class="meta"> · ${run.status} · <${Time} when=${run.finishedAt ?? run.startedAt} />${run.error ? ` · ${run.error}` : ""}</span>
              </li>`,
            )}</ul>`,
      element,
    );
  };
}
