// The Approvals page (/console/approvals): today's inbox, the app's requests and the gateway's
// own exec approvals in one list (plugins/gateway-approvals files them as approvals), with
// filters by kind and requester and the decided history searchable. /console/approvals/<id>
// opens one approval. Reloaded on every approvals event.
import { html, mountComponent, muster, useResource, useRoute, useState, useStylesheet, ErrorNote, Empty, PageHeader, Section } from "@muster/console";
import { ApprovalCard } from "./approval-card.ts";
import { FilterBar, matchesFilters, useFilters } from "./approval-filters.ts";
import { ApprovalsHistory } from "./approvals-history.ts";
import type { ApprovalSummary } from "./approval-types.ts";

useStylesheet("/dashboard/plugins/approvals/approvals.css");

const EVENTS = ["approvals.*"];
/** Pending approvals loaded (the API's maximum page); the rest are counted, and shown as these are decided. */
const PENDING_LOADED = 500;
const HISTORY_LOADED = 500;
const PENDING_SHOWN = 50;

const countText = (total: number, matching: number | null) =>
  total === 0 ? "nothing waiting" : `${total} waiting${matching === null ? "" : ` · ${matching} match the filters`}`;

function Inbox() {
  const [filters, setFilters] = useFilters();
  const list = useResource(() => muster.getApprovals({ query: { pendingLimit: PENDING_LOADED, limit: HISTORY_LOADED } }), { events: EVENTS });
  // Cards holding an outcome or a refusal stay (as first seen) until dismissed.
  const [held, setHeld] = useState<ReadonlyMap<string, ApprovalSummary>>(new Map());
  const pending = list.data?.pending ?? [];
  const hold = (id: string, keep: boolean) =>
    setHeld((current) => {
      const next = new Map(current);
      const approval = pending.find((a) => a.id === id) ?? current.get(id);
      if (keep && approval) next.set(id, approval);
      else next.delete(id);
      return next;
    });
  const pendingIds = new Set(pending.map((a) => a.id));
  const cards = [...pending, ...[...held.values()].filter((a) => !pendingIds.has(a.id))]
    .filter((a) => held.has(a.id) || matchesFilters(a, filters))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const shown = cards.slice(0, PENDING_SHOWN);
  const total = list.data?.pendingTotal ?? 0;
  const history = (list.data?.history ?? []).filter((a) => matchesFilters(a, filters));
  const filtered = Boolean(filters.kind || filters.requester || filters.q);

  return html`<${PageHeader} title="Approvals" description=${list.data ? (total === 0 ? "Nothing is waiting for you." : `${total} waiting for you.`) : "Loading…"} />
    <${ErrorNote} error=${list.error} prefix="Could not load approvals." />
    <${FilterBar} filters=${filters} set=${setFilters} approvals=${[...pending, ...(list.data?.history ?? [])]} />
    <${Section} id="approvals" title="Waiting for you">
      <p id="approvals-count" class="count" aria-live="polite">${list.data ? countText(total, filtered ? cards.filter((a) => pendingIds.has(a.id)).length : null) : ""}</p>
      <div id="approvals-list" class="approvals">
        ${shown.map((approval) => html`<${ApprovalCard} key=${approval.id} approval=${approval} onHold=${hold} />`)}
      </div>
      ${list.data && shown.length === 0 ? html`<${Empty}>${filtered && total > 0 ? "No waiting approval matches the filters." : "No approval is waiting for you."}<//>` : null}
      ${total > pending.length || cards.length > shown.length ? html`<p class="hint">${Math.max(total - pending.length, cards.length - shown.length)} more waiting; they appear here as these are decided.</p>` : null}
    <//>
    <${Section} title="Decided">
      <${ApprovalsHistory} approvals=${history} />
    <//>`;
}

function OneApproval({ id }: { id: string }) {
  const one = useResource(() => muster.getApprovalsById({ id }), { events: EVENTS, deps: [id] });
  const approval = one.data?.approval;
  return html`<${PageHeader} title="Approval" description=${html`<a href="/console/approvals">Back to the inbox</a>`} />
    <${ErrorNote} error=${one.error} prefix="Could not load this approval." />
    ${approval
      ? html`<${Section} title=${approval.status === "pending" ? "Waiting for you" : "Decided"}><${ApprovalCard} key=${approval.id} approval=${approval} full=${approval} /><//>`
      : one.error ? null : html`<p class="meta" aria-live="polite">Loading…</p>`}`;
}

function ApprovalsPage() {
  const { rest } = useRoute();
  return html`<div class="approvals-page">${rest[0] ? html`<${OneApproval} id=${rest[0]} />` : html`<${Inbox} />`}</div>`;
}

export default mountComponent(ApprovalsPage);
