// One council as it happens: the positions of each round, the moderator's proposal, the votes,
// the outcome, the memo and the ratification approval. It reloads on every council.session.*
// event, so each step appears as the members take it.
import { html, useState, muster, useResource, useLive, pageHref, Section, ErrorNote, Empty, Badge, Time, type Muster, type LiveMessage } from "@muster/console";
import { StatusBadge } from "./council-status.ts";

type Council = Awaited<ReturnType<Muster["getCouncilSessionById"]>>["session"];
type Vote = Council["votes"][number];

const VOTE_TONE = { support: "ok", oppose: "bad", abstain: "muted" } as const;

function Rounds({ council }: { council: Council }) {
  const rounds = Array.from({ length: council.rounds }, (_, i) => i + 1);
  return html`<${Section} title="Positions">
    ${rounds.map((round) => {
      const positions = council.positions.filter((p) => p.round === round);
      return html`<div class="council-round" key=${round}>
        <h3>Round ${round} of ${council.rounds}</h3>
        ${positions.length === 0
          ? html`<${Empty}>${council.status === "running" ? "Not reached yet." : "No positions."}<//>`
          : html`<ul class="council-positions">${positions.map((p) => html`<li key=${`${p.round}-${p.agentId}`}><strong>${p.agentId}</strong><p class="council-text">${p.text}</p></li>`)}</ul>`}
      </div>`;
    })}
  <//>`;
}

function Votes({ votes }: { votes: readonly Vote[] }) {
  if (votes.length === 0) return html`<${Empty}>No votes yet.<//>`;
  return html`<ul class="council-votes">
    ${votes.map(
      (v) => html`<li key=${v.agentId}>
        <strong>${v.agentId}</strong> <${Badge} tone=${VOTE_TONE[v.vote]}>${v.vote}<//>
        <span class="meta">confidence ${Math.round(v.confidence * 100)}%</span>
        <p class="council-text">${v.reason}</p>
      </li>`,
    )}
  </ul>`;
}

function Ratification({ approvalId }: { approvalId: string }) {
  const approval = useResource(() => muster.getApprovalsById({ id: approvalId }), { events: ["approvals.approval.*"], deps: [approvalId] });
  const status = approval.data?.approval.status;
  return html`<p>
    Ratification: ${status ? html`<${Badge} tone=${status === "approved" ? "ok" : status === "rejected" ? "bad" : "info"}>${status}<//> ` : null}
    <a href=${pageHref("approvals", approvalId)}>${status === "pending" ? "Decide the approval" : "Open the approval"}</a>
    <${ErrorNote} error=${approval.error} />
  </p>`;
}

/** "Waiting for <agent>'s vote" from the latest progress event of this council. */
function useProgress(id: string): string | null {
  const [step, setStep] = useState<string | null>(null);
  useLive(["council.session.progressed"], (message: LiveMessage) => {
    if (message.type !== "event" || message.payload.id !== id) return;
    const { step: kind, agentId, round } = message.payload as { step?: string; agentId?: string; round?: number | null };
    setStep(`${agentId ?? "an agent"} gave ${kind === "vote" ? "a vote" : kind === "proposal" ? "the proposal" : `a position${round ? ` in round ${round}` : ""}`}`);
  });
  return step;
}

export function CouncilDetail({ id }: { id: string }) {
  const council = useResource(() => muster.getCouncilSessionById({ id }), { events: ["council.session.*"], deps: [id], settleMs: 100 });
  const progress = useProgress(id);
  const c = council.data?.session;
  if (!c) return html`<div>
    <p><a href=${pageHref("councils")}>All councils</a></p>
    <${ErrorNote} error=${council.error} />
    ${council.error ? null : html`<p class="meta" aria-live="polite">Loading the council…</p>`}
  </div>`;
  return html`<div class="stack council-detail">
    <p><a href=${pageHref("councils")}>All councils</a></p>
    <${Section} title="Topic" actions=${html`<${StatusBadge} session=${c} />`}>
      <p class="council-text council-topic">${c.topic}</p>
      <p class="meta">Members: ${c.agents.join(", ")} (moderator ${c.agents[0]}) · ${c.rounds} rounds · started <${Time} when=${c.createdAt} /></p>
      ${c.status === "running" ? html`<p class="meta" aria-live="polite">In session${progress ? `: ${progress}` : "…"}</p>` : null}
      ${c.error ? html`<p class="error" role="alert">${c.error}</p>` : null}
    <//>
    <${Rounds} council=${c} />
    <${Section} title="Proposal">${c.proposal ? html`<p class="council-text">${c.proposal}</p>` : html`<${Empty}>Not written yet.<//>`}<//>
    <${Section} title="Votes"><${Votes} votes=${c.votes} /><//>
    <${Section} title="Outcome">
      ${c.outcome ? html`<p><strong>${c.outcome === "adopted" ? "Adopted" : "No consensus"}</strong>${c.completedAt ? html` · <${Time} when=${c.completedAt} />` : null}</p>` : html`<${Empty}>Not decided yet.<//>`}
      ${c.memoPath ? html`<p>Memo: <code>${c.memoPath}</code> (in the workspace)</p>` : null}
      ${c.approvalId ? html`<${Ratification} approvalId=${c.approvalId} />` : null}
      ${c.ratifiedAt ? html`<p>Ratified by ${c.ratifiedBy ?? "a human"} <${Time} when=${c.ratifiedAt} /></p>` : null}
    <//>
  </div>`;
}
