// The gateway approvals an agent of this conversation waits on (an exec request raised in one of
// its gateway sessions, `agent:<id>:muster-<sessionId>`), shown inline with Approve and Reject.
// Deciding here is deciding the Muster approval (docs/approvals.md, "One inbox"): approving
// allows the request once in the gateway and the agent's turn goes on.
import { html, useState, muster, useResource, Badge, ActionButton, ErrorNote, pageHref, type Muster } from "@muster/console";

type ApprovalSummary = Awaited<ReturnType<Muster["getApprovals"]>>["pending"][number];

/** Whether a pending approval came from the gateway for one of this chat session's agent sessions. */
const isForSession = (approval: ApprovalSummary, sessionId: string) =>
  (approval.command ?? "").startsWith("openclaw.") && (approval.context ?? "").includes(`:muster-${sessionId}`);

function RejectWithReason({ approval }: { approval: ApprovalSummary }) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  if (!asking) return html`<button type="button" class="button danger" onClick=${() => setAsking(true)}>Reject</button>`;
  const inputId = `reject-reason-${approval.id}`;
  return html`<span class="reject-reason">
    <label for=${inputId}>Reason for rejecting</label>
    <input id=${inputId} value=${reason} onInput=${(e: Event) => setReason((e.currentTarget as HTMLInputElement).value)} maxlength="2000" />
    <${ActionButton} label="Confirm reject" tone="danger" disabled=${reason.trim() === ""}
      onAction=${() => muster.patchApprovalsById({ id: approval.id, body: { status: "rejected", reason: reason.trim() } })} />
    <button type="button" class="button plain" onClick=${() => setAsking(false)}>Cancel</button>
  </span>`;
}

function InlineApproval({ approval }: { approval: ApprovalSummary }) {
  return html`<li class="approval chat-approval" data-approval-id=${approval.id}>
    <div class="approval-head">
      <${Badge} tone="info">Waiting for you<//>
      <h3>${approval.title}</h3>
    </div>
    <p class="meta">${approval.requestedBy} asks · ${approval.context ?? ""}</p>
    <div class="decide">
      <${ActionButton} label="Approve" tone="primary" ariaLabel=${`Approve “${approval.title}”`}
        onAction=${() => muster.patchApprovalsById({ id: approval.id, body: { status: "approved" } })} />
      <${RejectWithReason} approval=${approval} />
      <a href=${pageHref("approvals", approval.id)}>Open in approvals</a>
    </div>
  </li>`;
}

export function ExecApprovals({ sessionId }: { sessionId: string }) {
  const approvals = useResource(() => muster.getApprovals({ query: { pendingLimit: 500, limit: 1 } }), {
    events: ["approvals.approval.*", "chat.turn.*"],
    deps: [sessionId],
    settleMs: 50,
  });
  const waiting = (approvals.data?.pending ?? []).filter((a) => isForSession(a, sessionId));
  if (waiting.length === 0 && !approvals.error) return null;
  return html`<section class="chat-approvals" aria-label="Approvals this conversation waits on">
    <${ErrorNote} error=${approvals.error} />
    <ul class="approvals">${waiting.map((a) => html`<${InlineApproval} key=${a.id} approval=${a} />`)}</ul>
  </section>`;
}
