// The approvals inbox: pending approvals with their exact payload (lists carry none, so each
// is fetched from GET /api/approvals/{id}), approve/reject with a reason, and recent history.
// Cards are kept per id across refreshes so a reason being typed keeps its text and focus.
import { api, ApiError, SIGNED_OUT_CODES } from "./api.js";
import { h, showError, errorText, time } from "./dom.js";

/** Pending approvals shown; each one's payload is fetched once and kept while it is pending. */
const PENDING_SHOWN = 50;
/** Refusals after which the approval can no longer be decided from this card. */
const FINAL_REFUSALS = new Set(["APPROVAL_ALREADY_RESOLVED", "APPROVAL_NOT_FOUND", "APPROVAL_EXPIRED"]);

export function createApprovalsInbox({ signedIn, onSignedOut }) {
  const list = document.getElementById("approvals-list");
  const history = document.getElementById("approvals-history");
  const count = document.getElementById("approvals-count");
  const error = document.getElementById("approvals-error");
  const section = document.getElementById("approvals");
  const cards = new Map(); // id -> card element
  const details = new Map(); // id -> full approval (with payload)

  let latest = 0;

  async function refresh() {
    // Refreshes can overlap (stream events, a decision); only the latest one draws.
    const mine = ++latest;
    let listed;
    try {
      listed = await api.get(`/api/approvals?limit=15&pendingLimit=${PENDING_SHOWN}`);
      showError(error, null);
    } catch (caught) {
      showError(error, `Could not load approvals. ${errorText(caught)}`);
      return;
    }
    await Promise.all(listed.pending.map(loadDetail));
    if (mine !== latest) return;
    renderPending(listed.pending, listed.pendingTotal);
    history.replaceChildren(...listed.history.map(historyItem));
  }

  async function loadDetail(summary) {
    if (details.has(summary.id)) return;
    try {
      details.set(summary.id, (await api.get(`/api/approvals/${encodeURIComponent(summary.id)}`)).approval);
    } catch {
      // Shown without its payload; the next refresh tries again.
    }
  }

  function renderPending(pending, total) {
    count.textContent = total === 0 ? "nothing waiting" : `${total} waiting`;
    for (const note of list.querySelectorAll(".empty")) note.remove();
    const ids = new Set(pending.map((a) => a.id));
    let focusLost = false;
    for (const [id, card] of cards) {
      // A card being decided, or just decided, stays a moment so its outcome can be read.
      if (ids.has(id) || card.dataset.state) continue;
      focusLost ||= card.contains(document.activeElement);
      card.remove();
      cards.delete(id);
      details.delete(id);
    }
    // New cards are inserted before existing ones (newest first) without moving existing ones.
    pending.forEach((approval, index) => {
      let card = cards.get(approval.id);
      // A card first drawn without its payload (the fetch failed) is redrawn once it has one.
      if (card && !card.dataset.payload && details.has(approval.id) && !card.contains(document.activeElement) && !card.dataset.state) {
        card.remove();
        card = undefined;
      }
      if (!card) {
        card = approvalCard(details.get(approval.id) ?? approval);
        cards.set(approval.id, card);
      }
      const at = list.children[index];
      if (at !== card) list.insertBefore(card, at ?? null);
    });
    if (pending.length === 0) list.append(h("p", { class: "empty" }, "No approval is waiting for you."));
    else if (total > pending.length) list.append(h("p", { class: "empty" }, `${total - pending.length} more waiting; they appear here as these are decided.`));
    if (focusLost) (list.querySelector("input:not(:disabled)") ?? section).focus();
  }

  function approvalCard(approval) {
    const titleId = `approval-${approval.id}-title`;
    const reason = h("input", { type: "text", name: "reason", maxlength: 2000, placeholder: "Reason (optional)", "aria-label": `Reason for ${approval.title}` });
    const message = h("p", { class: "error", role: "alert", hidden: true });
    const outcome = h("p", { class: "outcome", role: "status" });
    const approve = h("button", { type: "button", class: "approve", "aria-describedby": titleId }, "Approve");
    const reject = h("button", { type: "button", class: "reject", "aria-describedby": titleId }, "Reject");
    const card = h(
      "article",
      { class: "approval", "data-id": approval.id, "data-payload": "payload" in approval ? "loaded" : undefined, "aria-labelledby": titleId },
      h("div", { class: "approval-head" }, h("h3", { id: titleId }, approval.title), h("span", { class: "badge" }, approval.command ?? "approval"), approval.gated ? h("span", { class: "badge gated" }, "runs on approve") : null),
      h("p", { class: "meta" }, "Asked by ", h("strong", {}, approval.requestedBy), " · ", time(approval.createdAt), approval.taskId && approval.taskId !== approval.title ? [" · task ", h("code", {}, approval.taskId)] : null, approval.expiresAt ? [" · expires ", time(approval.expiresAt)] : null),
      approval.description ? h("p", { class: "description" }, approval.description) : null,
      approval.context ? h("p", { class: "context" }, approval.context) : null,
      payloadBlock(approval),
      h("div", { class: "decide" }, reason, approve, reject),
      message,
      outcome,
    );
    const decide = async (status) => {
      if (!signedIn()) {
        showError(message, "Sign in first: run `muster login` in a terminal and open the link it prints.");
        return;
      }
      card.dataset.state = "deciding";
      approve.disabled = reject.disabled = true;
      showError(message, null);
      const body = { status };
      if (reason.value.trim()) body.reason = reason.value.trim();
      try {
        const { approval: decided } = await api.patch(`/api/approvals/${encodeURIComponent(approval.id)}`, body);
        card.dataset.state = decided.status;
        reason.disabled = true;
        card.classList.add("decided");
        outcome.textContent = `${decided.status === "approved" ? "Approved" : "Rejected"} by ${decided.decidedBy}${decided.executionStatus !== "none" ? ` · action ${decided.executionStatus}` : ""}`;
        setTimeout(() => {
          delete card.dataset.state;
          void refresh();
        }, 2000);
      } catch (caught) {
        showError(message, errorText(caught));
        if (caught instanceof ApiError && FINAL_REFUSALS.has(caught.code)) {
          // Nothing left to decide here: the card stays, greyed, until dismissed, so the
          // refusal is read rather than vanishing with the next refresh.
          card.dataset.state = "refused";
          reason.disabled = true;
          const dismiss = h("button", { type: "button", class: "dismiss" }, "Dismiss");
          dismiss.addEventListener("click", () => {
            delete card.dataset.state;
            void refresh();
          });
          card.querySelector(".decide").append(dismiss);
          dismiss.focus();
          return;
        }
        delete card.dataset.state;
        approve.disabled = reject.disabled = false;
        if (caught instanceof ApiError && SIGNED_OUT_CODES.has(caught.code)) onSignedOut();
      }
    };
    approve.addEventListener("click", () => decide("approved"));
    reject.addEventListener("click", () => decide("rejected"));
    return card;
  }

  return { refresh };
}

function payloadBlock(approval) {
  if (!("payload" in approval)) return h("p", { class: "hint" }, "Payload not loaded yet.");
  if (approval.payload === null || approval.payload === undefined) return h("p", { class: "hint" }, "No payload.");
  return h(
    "details",
    { class: "payload", open: true },
    h("summary", {}, "Exact payload", approval.payloadHash ? h("span", { class: "hash", title: `SHA-256 ${approval.payloadHash}` }, ` sha256 ${approval.payloadHash.slice(0, 12)}…`) : null),
    h("pre", { tabindex: 0 }, JSON.stringify(approval.payload, null, 2)),
  );
}

function historyItem(approval) {
  return h(
    "li",
    { class: `history-item ${approval.status}`, "data-id": approval.id },
    h("span", { class: `badge ${approval.status}` }, approval.expired ? "expired" : approval.status),
    " ",
    h("span", { class: "history-title" }, approval.title),
    h("span", { class: "meta" }, approval.decidedBy ? ` by ${approval.decidedBy}` : "", approval.resolvedAt ? [" · ", time(approval.resolvedAt)] : null, approval.reason ? ` · “${approval.reason}”` : "", approval.executionStatus !== "none" ? ` · action ${approval.executionStatus}` : ""),
  );
}
