// The outbox: one row per platform per approved publish. `unknown` means the platform may or
// may not have the post (its answer was lost): it is shown as unknown, never as success.
import { html, muster, pageHref, useResource, Badge, DataTable, ErrorNote, Time, type Tone } from "@muster/console";
import type { Muster } from "@muster/console";

type OutboxEntry = Awaited<ReturnType<Muster["getContentOutbox"]>>["entries"][number];

const TONES: Record<OutboxEntry["status"], Tone> = { approved: "info", publishing: "info", published: "ok", failed: "bad", unknown: "warn" };
const LABELS: Record<OutboxEntry["status"], string> = { approved: "queued", publishing: "publishing", published: "published", failed: "failed", unknown: "unknown: may or may not be posted" };

export function OutboxTable() {
  const outbox = useResource(() => muster.getContentOutbox({ query: { limit: 200 } }), { events: ["publishing.*"] });
  const columns = [
    { label: "Platform", key: "platform" as const },
    { label: "Post", render: (e: OutboxEntry) => e.title || [...e.text].slice(0, 60).join("") },
    { label: "State", render: (e: OutboxEntry) => html`<${Badge} tone=${TONES[e.status]}>${LABELS[e.status]}<//>` },
    { label: "Due", render: (e: OutboxEntry) => html`<${Time} when=${e.dueAt} />` },
    { label: "Attempts", render: (e: OutboxEntry) => String(e.attempts) },
    {
      label: "Result",
      render: (e: OutboxEntry) => (e.postUrl ? html`<a href=${e.postUrl} rel="noopener noreferrer">${e.postId ?? e.postUrl}</a>` : (e.error ?? e.postId ?? "—")),
    },
    { label: "Approval", render: (e: OutboxEntry) => html`<a href=${pageHref("approvals", e.approvalId)}>${e.approvalId.slice(0, 8)}</a>` },
  ];
  return html`<div>
    <${ErrorNote} error=${outbox.error} />
    <${DataTable} caption="Outbox" captionHidden=${true} rows=${outbox.data?.entries} rowKey=${(e: OutboxEntry) => e.id} columns=${columns}
      empty="Nothing approved for publishing yet." />
  </div>`;
}
