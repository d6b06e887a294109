// What became of a decided approval, as the API says it: who decided and why, then its gated
// action's execution status and result. "The action ran" is not "it worked": a publish only
// queues outbox entries, so their own outcome (published, failed, unknown) is read from the
// outbox and followed live. Nothing here is inferred beyond what the API returns.
import { html, muster, useResource, Badge, ErrorNote, Time, type Tone } from "@muster/console";
import type { Approval, ApprovalSummary } from "./approval-types.ts";

interface OutboxRow {
  platform: string;
  status: string;
  error?: string | null;
  postUrl?: string | null;
}
const PUBLISH_KIND = "publishing.publish";
const OUTBOX_TEXT: Record<string, [string, Tone]> = {
  approved: ["waiting to send", "info"],
  publishing: ["sending", "info"],
  published: ["published", "ok"],
  failed: ["failed", "bad"],
  unknown: ["unknown: the platform may or may not have the post", "warn"],
};

/** The `{ outbox: [...] }` a publish approval's execution returns (plugins/publishing). */
function queuedOutbox(result: unknown): OutboxRow[] | null {
  const outbox = (result as { outbox?: unknown } | null | undefined)?.outbox;
  return Array.isArray(outbox) ? (outbox as OutboxRow[]) : null;
}

/** Only a web address becomes a link (a platform's answer is not trusted with `javascript:`). */
const webLink = (url: string | null | undefined): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

function OutboxOutcome({ approvalId, queued }: { approvalId: string; queued: readonly OutboxRow[] }) {
  const entries = useResource(() => muster.getContentOutbox({ query: { approvalId } }).then((res) => res.entries), { events: ["publishing.outbox.*"], deps: [approvalId] });
  const rows: readonly OutboxRow[] = entries.data ?? queued;
  return html`<ul class="outbox-outcome" aria-label="Outbox">
    ${rows.map((row) => {
      const [text, tone] = OUTBOX_TEXT[row.status] ?? [row.status, "muted" as Tone];
      return html`<li key=${row.platform} data-outbox-status=${row.status}>
        <span class="platform">${row.platform}</span> <${Badge} tone=${tone}>${text}<//>
        ${row.error ? html` <span class="meta">${row.error}</span>` : null}
        ${webLink(row.postUrl) ? html` <a href=${webLink(row.postUrl)} rel="noopener noreferrer">Open the post on ${row.platform}</a>` : null}
      </li>`;
    })}
    ${entries.error ? html`<li><${ErrorNote} error=${entries.error} prefix="Could not read the outbox." /></li>` : null}
  </ul>`;
}

/** The execution's state in words; `succeeded` only says the action ran. */
function Execution({ approval }: { approval: ApprovalSummary | Approval }) {
  const result = "executionResult" in approval ? approval.executionResult : undefined;
  switch (approval.executionStatus) {
    case "none":
      return null;
    case "running":
      return html`<p class="execution" data-execution="running"><${Badge} tone="info">action running<//></p>`;
    case "failed":
      return html`<p class="execution" data-execution="failed"><${Badge} tone="bad">action failed<//> <span class="execution-error">${approval.executionError ?? ""}</span></p>`;
    case "succeeded": {
      // A list item has no result: a publish's outbox is still read by its approval id.
      const queued = queuedOutbox(result) ?? (approval.command === PUBLISH_KIND ? [] : null);
      return html`<div class="execution" data-execution="succeeded">
        <p><${Badge} tone="info">action ran<//>${approval.executedAt ? html` <${Time} when=${approval.executedAt} />` : null}${queued ? " · its outbox entries:" : ""}</p>
        ${queued ? html`<${OutboxOutcome} approvalId=${approval.id} queued=${queued} />` : null}
        ${!queued && result !== undefined && result !== null
          ? html`<details class="payload"><summary>Result</summary><pre tabindex="0">${JSON.stringify(result, null, 2)}</pre></details>`
          : null}
      </div>`;
    }
  }
}

/** "Approved by sam · “reason”" and the execution, for a decided approval; nothing while pending. */
export function ApprovalOutcome({ approval }: { approval: ApprovalSummary | Approval }) {
  if (approval.status === "pending") return null;
  const verb = approval.status === "approved" ? "Approved" : approval.expired ? "Expired" : "Rejected";
  return html`<div class="outcome-block" data-status=${approval.status}>
    <p class="outcome" role="status">${verb}${approval.decidedBy ? ` by ${approval.decidedBy}` : ""}${approval.reason ? ` · “${approval.reason}”` : ""}</p>
    <${Execution} approval=${approval} />
  </div>`;
}
