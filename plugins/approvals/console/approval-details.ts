// The expandable part of an approval: what it asks (description, context) and the exact
// payload approving it acts on. Lists carry no payload, so it is loaded when first opened.
import { html, muster, useState, ErrorNote, Time } from "@muster/console";
import type { Approval, ApprovalSummary } from "./approval-types.ts";

function Payload({ approval }: { approval: Approval }) {
  if (approval.payload === null || approval.payload === undefined) return html`<p class="hint">No payload.</p>`;
  return html`<div class="exact-payload">
    <p class="meta">Exact payload${approval.payloadHash ? html` <span class="hash" title=${`SHA-256 ${approval.payloadHash}`}>sha256 ${approval.payloadHash.slice(0, 12)}…</span>` : null}</p>
    <pre tabindex="0" aria-label="Exact payload">${JSON.stringify(approval.payload, null, 2)}</pre>
  </div>`;
}

function Body({ approval }: { approval: Approval }) {
  return html`${approval.description ? html`<p class="description">${approval.description}</p>` : null}
    ${approval.context ? html`<p class="context">${approval.context}</p>` : null}
    <p class="meta">Approver ${approval.approver}${approval.taskId !== approval.title ? html` · task <code>${approval.taskId}</code>` : null}${approval.expiresAt ? html` · expires <${Time} when=${approval.expiresAt} />` : null} · id <code>${approval.id}</code></p>
    <${Payload} approval=${approval} />`;
}

/**
 * `<details>` closed by default (a list of payloads would bury everything else); `full` given
 * (the approval's own page) draws it open at once.
 */
export function ApprovalDetails({ summary, full, open = false }: { summary: ApprovalSummary; full?: Approval; open?: boolean }) {
  const [loaded, setLoaded] = useState<Approval | undefined>(full);
  const [error, setError] = useState<unknown>(undefined);
  const shown = full ?? loaded;
  const toggled = (event: Event) => {
    if (!(event.currentTarget as HTMLDetailsElement).open || shown) return;
    muster.getApprovalsById({ id: summary.id }).then((res) => setLoaded(res.approval), setError);
  };
  return html`<details class="payload" open=${open} onToggle=${toggled}>
    <summary>Details and exact payload</summary>
    ${shown ? html`<${Body} approval=${shown} />` : error ? null : html`<p class="meta" aria-live="polite">Loading…</p>`}
    <${ErrorNote} error=${error} prefix="Could not load this approval." />
  </details>`;
}
