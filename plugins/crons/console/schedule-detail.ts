// `/console/schedules/<jobId>`: one cron job: what it sends to whom and when (next fire in the
// job's zone and the viewer's), run now, enable or disable, edit its name, expression and
// message, delete it (with a confirmation), and its recent runs with their results.
import { html, muster, navigate, pageHref, useResource, ActionButton, DataTable, ErrorNote, Field, Form, PageHeader, Section, Time, type Column } from "@muster/console";
import { CRON_EVENTS, JobActions, NextFire, StatusBadge, type CronJob, type CronRun } from "./schedule-parts.ts";

const RUNS_SHOWN = 50;

async function loadJob(id: string): Promise<CronJob | null> {
  const { jobs } = await muster.getCrons();
  return jobs.find((job) => job.id === id) ?? null;
}

function RunOutcome({ run }: { run: CronRun }) {
  if (run.error) return html`<code>${run.error}</code>`;
  if (run.output) return html`<details><summary>Reply (${run.output.length.toLocaleString()} characters)</summary><pre class="output run-output">${run.output}</pre></details>`;
  return html`<span class="meta">${run.status === "running" ? "Waiting for the agent…" : "—"}</span>`;
}

const runColumns: Column<CronRun>[] = [
  { label: "Started", class: "c-started", render: (run) => html`<${Time} when=${run.startedAt} />` },
  { label: "Trigger", class: "c-trigger", render: (run) => (run.trigger === "manual" ? "Run now" : "Schedule") },
  { label: "Status", class: "c-status", render: (run) => html`<${StatusBadge} status=${run.status} />` },
  { label: "Finished", class: "c-finished", render: (run) => (run.finishedAt ? html`<${Time} when=${run.finishedAt} />` : html`<span class="meta">—</span>`) },
  { label: "Result", class: "c-result", render: (run) => html`<${RunOutcome} run=${run} />` },
];

function EditForm({ job, onSaved }: { job: CronJob; onSaved: () => void }) {
  const save = async (fields: FormData) => {
    await muster.patchCrons({ body: { id: job.id, name: String(fields.get("name") ?? "").trim(), cron: String(fields.get("cron") ?? "").trim(), message: String(fields.get("message") ?? "") } });
    onSaved();
  };
  return html`<${Form} label=${`Edit “${job.name}”`} submitLabel="Save changes" resetOnSuccess=${false} onSubmit=${save}>
    <div class="grid-2">
      <${Field} label="Name" name="name" value=${job.name} required=${true} />
      <${Field} label="Cron expression" name="cron" value=${job.cron} required=${true} hint=${`Five fields, read in ${job.timezone}.`} />
    </div>
    <${Field} label="Message" name="message" as="textarea" rows=${3} value=${job.message} required=${true} />
  <//>`;
}

export function ScheduleDetail({ jobId }: { jobId: string }) {
  const job = useResource(() => loadJob(jobId), { events: CRON_EVENTS, deps: [jobId] });
  const runs = useResource(() => muster.getCronsRuns({ query: { id: jobId, limit: RUNS_SHOWN } }).then((answer) => answer.runs), { events: CRON_EVENTS, deps: [jobId] });
  const reload = () => {
    void job.reload();
    void runs.reload();
  };
  const current = job.data;
  if (job.data === null) {
    return html`<div class="page schedules"><${PageHeader} title="No such schedule" /><p>No cron job has the id <code>${jobId}</code>. <a href=${pageHref("schedules")}>All schedules</a>.</p></div>`;
  }
  const remove = async () => {
    await muster.deleteCrons({ query: { id: jobId } });
    navigate(pageHref("schedules"));
  };
  return html`<div class="page schedules" data-page="schedules">
    <${PageHeader} title=${current?.name ?? "Schedule"} description=${html`<a href=${pageHref("schedules")}>All schedules</a>`}
      actions=${current ? html`<${JobActions} job=${current} onDone=${reload} />` : null} />
    <${ErrorNote} error=${job.error} />
    ${current
      ? html`<div class="stack">
          <${Section} title="What and when">
            <dl class="job-facts">
              <dt>Agent</dt><dd>${current.agentId}${current.model ? html` <span class="meta">· ${current.model}</span>` : null}</dd>
              <dt>Expression</dt><dd><code>${current.cron}</code> in ${current.timezone}</dd>
              <dt>Next fire</dt><dd><${NextFire} job=${current} /></dd>
              <dt>Last result</dt><dd><${StatusBadge} status=${current.lastStatus} />${current.lastError ? html` <code>${current.lastError}</code>` : null}${current.lastRun ? html` <${Time} when=${current.lastRun} />` : null}</dd>
              <dt>Message</dt><dd><p class="message">${current.message}</p></dd>
            </dl>
          <//>
          <${Section} title="Recent runs">
            <${ErrorNote} error=${runs.error} />
            <${DataTable} caption=${`Runs of ${current.name}`} captionHidden=${true} rows=${runs.data} rowKey=${(run: CronRun) => run.id} columns=${runColumns} pageSize=${20}
              empty="No runs yet: use Run now, or wait for the next fire." />
          <//>
          <${Section} title="Edit">
            <${EditForm} key=${current.updatedAt} job=${current} onSaved=${reload} />
          <//>
          <${Section} title="Delete">
            <p class="meta">Deleting the job also deletes its run history.</p>
            <${ActionButton} label="Delete schedule" tone="danger" confirm=${`Delete “${current.name}” and its runs?`} onAction=${remove} />
          <//>
        </div>`
      : html`<p class="meta" aria-live="polite">Loading…</p>`}
  </div>`;
}
