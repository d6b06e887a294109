// What the Schedules pages share: the job and run types (from the SDK), the next fire written
// in the job's zone and the viewer's, the status badges, and the job's own actions (run now,
// enable or disable) that every view offers.
import { html, muster, ActionButton, Badge, type Muster, type Tone } from "@muster/console";

export type CronJob = Awaited<ReturnType<Muster["getCrons"]>>["jobs"][number];
export type CronRun = Awaited<ReturnType<Muster["getCronsRuns"]>>["runs"][number];

/** The live events that change what these pages show (a run started or finished). */
export const CRON_EVENTS = ["crons.*"];

export const viewerZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** `Mon 30 Nov, 09:00 CET` for an instant in a zone. */
export function inZone(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(undefined, { timeZone, weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short" }).format(new Date(iso));
}

/** The next fire in the job's zone, and in the viewer's when that differs. */
export function NextFire({ job }: { job: CronJob }) {
  if (!job.enabled) return html`<span class="meta">Disabled</span>`;
  if (!job.nextRun) return html`<span class="meta">No fire time in the next five years</span>`;
  const mine = viewerZone();
  return html`<time datetime=${job.nextRun} class="next-fire">${inZone(job.nextRun, job.timezone)}</time>${mine !== job.timezone
    ? html`<span class="meta next-fire-local"> (${inZone(job.nextRun, mine)} your time)</span>`
    : null}`;
}

const STATUS_TONES: Record<string, Tone> = { ok: "ok", running: "info", error: "bad", interrupted: "bad", skipped: "warn" };
export function StatusBadge({ status }: { status: string | null }) {
  if (!status) return html`<span class="meta">Never run</span>`;
  return html`<${Badge} tone=${STATUS_TONES[status] ?? "muted"}>${status}<//>`;
}

/** Run now and enable/disable, named with the job so a list's buttons are told apart. */
export function JobActions({ job, onDone }: { job: CronJob; onDone: (started?: CronRun) => void }) {
  const run = async () => {
    const answer = await muster.patchCrons({ body: { id: job.id, action: "run" } });
    onDone("run" in answer ? answer.run : undefined);
  };
  const toggle = async () => {
    await muster.patchCrons({ body: { id: job.id, action: job.enabled ? "disable" : "enable" } });
    onDone();
  };
  return html`<span class="job-actions">
    <${ActionButton} label="Run now" ariaLabel=${`Run now “${job.name}”`} onAction=${run} />
    <${ActionButton} label=${job.enabled ? "Disable" : "Enable"} ariaLabel=${`${job.enabled ? "Disable" : "Enable"} “${job.name}”`} onAction=${toggle} />
  </span>`;
}
