// What the console shows after a request that the approval step gates (a new agent, a pack,
// a change of tools): the pending approval it created, with a link to decide it.
import { html, pageHref } from "@muster/console";

/** The approval record a gated route answers with (`GET /api/approvals/{id}` shape). */
export type ApprovalRecord = Record<string, unknown>;

export function ApprovalNotice({ approval, what }: { approval: ApprovalRecord | undefined; what: string }) {
  if (!approval) return null;
  const id = String(approval.id ?? "");
  const title = typeof approval.title === "string" ? approval.title : "Approval";
  return html`<div class="notice approval-notice" role="status">
    <p>${what} It waits for a human decision: <strong>${title}</strong> (${String(approval.status ?? "pending")}).</p>
    <p><a href=${pageHref("approvals", id)}>Open approval ${id}</a></p>
  </div>`;
}
