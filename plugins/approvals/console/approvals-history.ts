// The decided approvals, newest first: status, title (a link to the approval's page), who
// decided and why, and what its action did. Twenty at a time, "Show more" for the rest.
import { html, useState, Badge, Empty, Time } from "@muster/console";
import { ApprovalOutcome } from "./approval-outcome.ts";
import { approvalHref, kindLabel, kindOf, type ApprovalSummary } from "./approval-types.ts";

const PAGE = 20;

export function ApprovalsHistory({ approvals }: { approvals: readonly ApprovalSummary[] }) {
  const [shown, setShown] = useState(PAGE);
  if (approvals.length === 0) return html`<${Empty}>No decided approval matches.<//>`;
  return html`<ol id="approvals-history" class="history-list">
      ${approvals.slice(0, shown).map(
        (approval) => html`<li key=${approval.id} class=${`history-item ${approval.status}`} data-id=${approval.id}>
          <div class="approval-head">
            <${Badge} tone=${approval.status === "approved" ? "ok" : "bad"}>${approval.expired ? "expired" : approval.status}<//>
            <a class="history-title" href=${approvalHref(approval.id)}>${approval.title}</a>
            <${Badge}>${kindLabel(kindOf(approval))}<//>
          </div>
          <p class="meta">Asked by ${approval.requestedBy}${approval.resolvedAt ? html` · decided <${Time} when=${approval.resolvedAt} />` : null}</p>
          <${ApprovalOutcome} approval=${approval} />
        </li>`,
      )}
    </ol>
    ${approvals.length > shown
      ? html`<button type="button" class="button plain more" onClick=${() => setShown(shown + PAGE)}>Show more decided approvals (${approvals.length - shown} more)</button>`
      : null}`;
}
