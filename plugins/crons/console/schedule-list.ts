// `/console/schedules`: every cron job with its expression, zone, next fire (in the job's zone
// and the viewer's), last result and its actions; the form that creates one.
import { html, muster, navigate, pageHref, useResource, useState, DataTable, ErrorNote, PageHeader, Section, type Column } from "@muster/console";
import { ScheduleForm } from "./schedule-form.ts";
import { CRON_EVENTS, JobActions, NextFire, StatusBadge, type CronJob, type CronRun } from "./schedule-parts.ts";

export function ScheduleList() {
  const jobs = useResource(() => muster.getCrons().then((answer) => answer.jobs), { events: CRON_EVENTS });
  const [started, setStarted] = useState<{ job: CronJob; run: CronRun } | undefined>(undefined);
  const columns: Column<CronJob>[] = [
    { label: "Schedule", class: "c-name", render: (job) => html`<a href=${pageHref("schedules", job.id)}>${job.name}</a>` },
    { label: "Agent", key: "agentId", class: "c-agent" },
    { label: "When", class: "c-when", render: (job) => html`<code class="cron-expression">${job.cron}</code> <span class="meta">${job.timezone}</span>` },
    { label: "Next fire", class: "c-next", render: (job) => html`<${NextFire} job=${job} />` },
    { label: "Last result", class: "c-last", render: (job) => html`<${StatusBadge} status=${job.lastStatus} />${job.lastError ? html` <span class="meta">${job.lastError}</span>` : null}` },
    {
      label: "Actions",
      class: "c-actions",
      render: (job) => html`<${JobActions} job=${job} onDone=${(run?: CronRun) => {
        if (run) setStarted({ job, run });
        void jobs.reload();
      }} />`,
    },
  ];
  return html`<div class="page schedules" data-page="schedules">
    <${PageHeader} title="Schedules" description="Muster's cron jobs: each sends its message to an agent at the times its expression names, in its own time zone." />
    <div class="stack">
      <${Section} title="Jobs">
        <${ErrorNote} error=${jobs.error} />
        ${started
          ? html`<p class="notice" role="status">Run of “${started.job.name}” started (${started.run.status}). <a href=${pageHref("schedules", started.job.id)}>See its runs</a>.</p>`
          : null}
        <${DataTable} caption="Cron jobs" captionHidden=${true} rows=${jobs.data} rowKey=${(job: CronJob) => job.id} columns=${columns} empty="No schedules yet: create one below." />
      <//>
      <${Section} title="New schedule">
        <${ScheduleForm} onCreated=${(job: CronJob) => navigate(pageHref("schedules", job.id))} />
      <//>
    </div>
  </div>`;
}
