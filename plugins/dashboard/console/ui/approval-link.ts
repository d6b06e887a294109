// What a page shows after a request the approval step gates (a publish, a git push): the
// pending approval it created, with a link to decide it at /console/approvals/<id>.
import { html } from "../html.ts";
import { pageHref } from "../router.ts";

export function ApprovalLink({ approval, what }: { approval: Record<string, unknown> | undefined; what: string }) {
  if (!approval) return null;
  const id = String(approval.id ?? "");
  const title = typeof approval.title === "string" ? approval.title : "Approval";
  return html`<div class="approval-link" role="status">
    <p>${what} It waits for a human decision: <strong>${title}</strong> (${String(approval.status ?? "pending")}).</p>
    <p><a href=${pageHref("approvals", id)}>Open approval ${id}</a></p>
  </div>`;
}
