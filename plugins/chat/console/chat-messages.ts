// The conversation: stored messages oldest first, then the turn streaming in from this page.
// Every text is agent- or human-written: inserted only as text.
import { html, Time, ErrorNote, Empty, errorText, type Muster } from "@muster/console";
import { continuesInBackground, type LiveTurn } from "./chat-turn.ts";

export type ChatMessage = Awaited<ReturnType<Muster["getChatSessionsById"]>>["messages"][number];

function Bubble({ who, round, text, when, streaming }: { who: string; round?: number | null; text: string; when?: string; streaming?: boolean }) {
  const human = who === "You";
  return html`<li class=${`chat-message ${human ? "from-human" : "from-agent"}`}>
    <div class="chat-meta">
      <strong>${who}</strong>
      ${round ? html`<span class="meta chat-round">round ${round}</span>` : null}
      ${when ? html`<${Time} when=${when} />` : null}
      ${streaming ? html`<span class="meta">writing…</span>` : null}
    </div>
    <p class="chat-text">${text}</p>
  </li>`;
}

export function ChatMessages({ messages, turn, party }: { messages: readonly ChatMessage[]; turn: LiveTurn | null; party: boolean }) {
  const stored = messages.map(
    (m) => html`<${Bubble} key=${m.id} who=${m.role === "user" ? "You" : (m.agentId ?? "agent")} round=${party ? m.round : null} text=${m.text} when=${m.createdAt} />`,
  );
  const live = turn
    ? [
        turn.ended ? null : html`<${Bubble} key="live-human" who="You" text=${turn.message} />`,
        ...turn.replies.map(
          (r, i) => html`<${Bubble} key=${`live-${i}`} who=${r.agentId} round=${party ? r.round : null} text=${r.text} streaming=${!r.done} />`,
        ),
      ]
    : [];
  if (stored.length === 0 && live.length === 0) return html`<${Empty}>No messages yet: write the first one below.<//>`;
  return html`<div>
    <ol class="chat-log" aria-label="Messages" aria-live="polite" aria-busy=${turn && !turn.ended ? "true" : "false"}>${stored}${live}</ol>
    ${turn?.error
      ? continuesInBackground(turn.error)
        ? html`<p class="notice" role="status">The agent is still working; its reply will appear here when it is done. (${errorText(turn.error)})</p>`
        : html`<${ErrorNote} error=${turn.error} prefix="The reply stopped:" />`
      : null}
  </div>`;
}
