// One approval: a one-line summary (title, kind, who asked, when), its details collapsed, and
// the decision: a reason, Approve and Reject. A rejection needs a reason, as `muster approvals
// reject --reason` does (the requester is told why). The API's refusals are shown with their
// code; once decided (or refused for good) the card keeps its outcome on screen until
// dismissed, so it is read rather than vanishing with the next refresh.
import { html, muster, signedIn, useRef, useState, isMusterApiError, Badge, ErrorNote, Time } from "@muster/console";
import { ApprovalDetails } from "./approval-details.ts";
import { ApprovalOutcome } from "./approval-outcome.ts";
import { approvalHref, fromGateway, kindLabel, kindOf, type Approval, type ApprovalSummary } from "./approval-types.ts";

/** Refusals after which this approval can no longer be decided here. */
const FINAL_REFUSALS = new Set(["APPROVAL_ALREADY_RESOLVED", "APPROVAL_NOT_FOUND", "APPROVAL_EXPIRED"]);
const SIGN_IN_FIRST = "Sign in first: run `muster login` in a terminal and open the link it prints.";
const REASON_NEEDED = "A rejection needs a reason: the requester is told why. Write it in the reason field.";

export interface ApprovalCardProps {
  approval: ApprovalSummary | Approval;
  /** The whole approval, when already loaded (its own page): details drawn open. */
  full?: Approval;
  /** Told when the card starts holding an outcome or refusal (true) and when dismissed (false). */
  onHold?: (id: string, held: boolean) => void;
}

export function ApprovalCard({ approval, full, onHold }: ApprovalCardProps) {
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [reasonMissing, setReasonMissing] = useState(false);
  const [decided, setDecided] = useState<Approval | undefined>(undefined);
  const [refused, setRefused] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const dismissButton = useRef<HTMLButtonElement>(null);
  const titleId = `approval-${approval.id}-title`;
  const reasonId = `approval-${approval.id}-reason`;

  const decide = async (status: "approved" | "rejected") => {
    setError(undefined);
    setReasonMissing(false);
    if (!signedIn()) return setError(new Error(SIGN_IN_FIRST));
    const text = reason.trim();
    if (status === "rejected" && !text) {
      setReasonMissing(true);
      setError(new Error(REASON_NEEDED));
      input.current?.focus();
      return;
    }
    setBusy(true);
    onHold?.(approval.id, true);
    try {
      const res = await muster.patchApprovalsById({ id: approval.id, body: { status, ...(text ? { reason: text } : {}) } });
      setDecided(res.approval);
      setTimeout(() => dismissButton.current?.focus());
    } catch (caught) {
      setError(caught);
      if (isMusterApiError(caught) && FINAL_REFUSALS.has(caught.code)) {
        setRefused(true);
        setTimeout(() => dismissButton.current?.focus());
      } else onHold?.(approval.id, false);
    } finally {
      setBusy(false);
    }
  };
  const dismiss = () => onHold?.(approval.id, false);

  // The newest word wins: the approval as last loaded once it is decided, else this card's decision.
  const outcome = approval.status === "pending" ? decided : (full ?? approval);
  const open = approval.status === "pending" && !decided && !refused;
  const state = decided ? decided.status : refused ? "refused" : busy ? "deciding" : undefined;
  return html`<article class=${`approval${decided ? " decided" : ""}`} data-id=${approval.id} data-state=${state} aria-labelledby=${titleId}>
    <div class="approval-head">
      <h3 id=${titleId}><a href=${approvalHref(approval.id)}>${approval.title}</a></h3>
      <${Badge} tone=${fromGateway(approval) ? "warn" : "info"} title="Kind">${kindLabel(kindOf(approval))}<//>
      ${approval.gated ? html`<${Badge} tone="info" title="Approving runs this action with the exact payload">runs on approve<//>` : null}
      ${approval.expired ? html`<${Badge} tone="muted">expired<//>` : null}
    </div>
    <p class="meta">Asked by <strong>${approval.requestedBy}</strong> · <${Time} when=${approval.createdAt} />${approval.description ? html` · <span class="one-line">${approval.description}</span>` : null}</p>
    <${ApprovalDetails} summary=${approval} full=${full} open=${Boolean(full)} />
    ${open
      ? html`<div class="decide">
          <label class="visually-hidden" for=${reasonId}>Reason for ${approval.title}</label>
          <input id=${reasonId} ref=${input} type="text" name="reason" maxlength="2000" placeholder="Reason (needed to reject)" value=${reason}
            aria-invalid=${reasonMissing ? "true" : undefined} disabled=${busy} onInput=${(event: Event) => setReason((event.currentTarget as HTMLInputElement).value)} />
          <button type="button" class="button primary" aria-describedby=${titleId} disabled=${busy} onClick=${() => decide("approved")}>Approve</button>
          <button type="button" class="button danger" aria-describedby=${titleId} disabled=${busy} onClick=${() => decide("rejected")}>Reject</button>
        </div>`
      : null}
    <${ErrorNote} error=${error} />
    ${outcome ? html`<${ApprovalOutcome} approval=${outcome} />` : null}
    ${(decided || refused) && onHold ? html`<div class="decide"><button type="button" class="button plain" ref=${dismissButton} onClick=${dismiss}>Dismiss</button></div>` : null}
  </article>`;
}
