// The home page's "Pending approvals" panel: how many wait, and the first few with links to
// their page in the inbox (the app's and the gateway's requests alike).
import { html, muster, render, Time } from "@muster/console";
import { approvalHref, kindLabel, kindOf } from "./approval-types.ts";

const SHOWN = 5;

export default function mountPendingPanel(element: HTMLElement) {
  return async function refresh() {
    const { pending, pendingTotal } = await muster.getApprovals({ query: { pendingLimit: SHOWN, limit: 1 } });
    render(
      html`<p class="meta"><strong>${pendingTotal === 0 ? "Nothing waiting" : `${pendingTotal} waiting`}</strong> · <a href="/console/approvals">Open the inbox</a></p>
        ${pending.length
          ? html`<ul class="history-list attention-list">${pending.map(
              (approval) => html`<li key=${approval.id} data-id=${approval.id}>
                <a href=${approvalHref(approval.id)}>${approval.title}</a>
                <span class="meta"> · ${kindLabel(kindOf(approval))} · ${approval.requestedBy} · <${Time} when=${approval.createdAt} /></span>
              </li>`,
            )}</ul>`
          : null}`,
      element,
    );
  };
}
