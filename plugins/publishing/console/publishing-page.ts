// The Publishing page (`/console/publishing`): compose a draft with a live preview against each
// platform's limits, send a draft for approval (the approval is shown with its link), and the
// outbox's state per platform. Follows `publishing.*`.
import { html, muster, mountComponent, pageHref, useResource, useState, useStylesheet, ActionButton, ApprovalLink, Badge, DataTable, ErrorNote, PageHeader, Section, Time } from "@muster/console";
import type { Muster } from "@muster/console";
import { ComposeForm } from "./compose-form.ts";
import { OutboxTable } from "./outbox-table.ts";

type Draft = Awaited<ReturnType<Muster["getContentDrafts"]>>["drafts"][number];

const draftName = (d: Draft) => d.title || [...d.text].slice(0, 60).join("");
const SENDABLE = new Set<Draft["status"]>(["draft", "failed"]);

function PublishingPage() {
  useStylesheet("/dashboard/plugins/publishing/publishing.css");
  const platforms = useResource(() => muster.getContentPlatforms());
  const drafts = useResource(() => muster.getContentDrafts({ query: { limit: 200 } }), { events: ["publishing.*"] });
  const [approval, setApproval] = useState<Record<string, unknown> | undefined>(undefined);
  const send = async (draft: Draft) => {
    const future = draft.scheduledAt && Date.parse(draft.scheduledAt) > Date.now() ? { scheduledAt: draft.scheduledAt } : {};
    const result = await muster.postContentPublish({ body: { draftId: draft.id, ...future } });
    setApproval(result.approval);
    void drafts.reload();
  };
  const columns = [
    { label: "Draft", render: (d: Draft) => draftName(d) },
    { label: "Platforms", render: (d: Draft) => (d.platforms.length ? d.platforms.join(", ") : "—") },
    { label: "Status", render: (d: Draft) => html`<${Badge} tone=${d.status === "failed" || d.status === "rejected" ? "bad" : d.status === "published" ? "ok" : "info"}>${d.status}<//>` },
    { label: "Scheduled", render: (d: Draft) => (d.scheduledAt ? html`<${Time} when=${d.scheduledAt} />` : "when approved") },
    { label: "Approval", render: (d: Draft) => (d.approvalId ? html`<a href=${pageHref("approvals", d.approvalId)}>${d.approvalId.slice(0, 8)}</a>` : "—") },
    {
      label: "Actions",
      render: (d: Draft) =>
        SENDABLE.has(d.status) ? html`<${ActionButton} label="Send for approval" ariaLabel=${`Send for approval: ${draftName(d)}`} tone="primary" onAction=${() => send(d)} />` : null,
    },
  ];
  return html`<div class="page publishing" data-page="publishing">
    <${PageHeader} title="Publishing" description="Drafts, their approval and the outbox per platform." />
    <${ErrorNote} error=${platforms.error ?? drafts.error} />
    <div class="stack">
      <div class="grid-2">
        <${Section} title="Compose"><${ComposeForm} platforms=${platforms.data?.platforms ?? []} onSaved=${() => void drafts.reload()} /><//>
        <${Section} title="Drafts">
          <${ApprovalLink} approval=${approval} what="Publishing was requested." />
          <${DataTable} caption="Drafts" captionHidden=${true} rows=${drafts.data?.drafts} rowKey=${(d: Draft) => d.id} columns=${columns} empty="No drafts yet." />
        <//>
      </div>
      <${Section} title="Outbox"><${OutboxTable} /><//>
    </div>
  </div>`;
}

export default mountComponent(PublishingPage);
