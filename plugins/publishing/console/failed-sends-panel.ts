// The home page's "Failed sends" panel: outbox entries that failed, and those whose outcome is
// unknown (the platform may or may not have the post; they are never re-sent), each linked to
// the approval that sent it.
import { html, muster, render, useStylesheet, Badge, Time } from "@muster/console";

const SHOWN = 5;
const SCANNED = 50;

export default function mountFailedSendsPanel(element: HTMLElement) {
  useStylesheet("/dashboard/plugins/publishing/failed-sends-panel.css");
  element.classList.add("failed-sends");
  return async function refresh() {
    const [{ entries: failed }, { entries: unknown }] = await Promise.all([
      muster.getContentOutbox({ query: { status: "failed", limit: SCANNED } }),
      muster.getContentOutbox({ query: { status: "unknown", limit: SCANNED } }),
    ]);
    const entries = [...failed, ...unknown].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    render(
      entries.length === 0
        ? html`<p class="empty">No failed or unknown sends.</p>`
        : html`<p class="meta"><strong>${failed.length} failed</strong> · <strong>${unknown.length} unknown</strong>${failed.length === SCANNED || unknown.length === SCANNED ? " (at least)" : ""}</p>
            <ul class="history-list attention-list">${entries.slice(0, SHOWN).map(
              (entry) => html`<li key=${entry.id} data-status=${entry.status}>
                <${Badge} tone=${entry.status === "failed" ? "bad" : "warn"}>${entry.status}<//>
                <a href=${`/console/approvals/${encodeURIComponent(entry.approvalId)}`}>${entry.title || entry.text.slice(0, 80)}</a>
                <span class="meta"> · ${entry.platform} · <${Time} when=${entry.updatedAt} />${entry.error ? ` · ${entry.error}` : ""}</span>
              </li>`,
            )}</ul>`,
      element,
    );
  };
}
