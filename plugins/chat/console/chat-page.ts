// Conversations (/console/chat, /console/chat/<sessionId>): chat with one agent or a party with
// the replies streaming in, the stored sessions, and inline the gateway approvals an agent of
// the open conversation waits on. A reply that arrives after the request (a turn that went on
// in the background) shows up when chat's live events reload the session. docs/console/conversations.md.
import { html, useRef, useState, muster, useResource, useLive, useRoute, navigate, pageHref, mountComponent, useStylesheet, PageHeader, Section, ErrorNote, ActionButton, Badge } from "@muster/console";
import { ChatMessages, type ChatMessage } from "./chat-messages.ts";
import { FollowUp, NewConversation } from "./chat-composer.ts";
import { ExecApprovals } from "./exec-approvals.ts";
import { SessionList } from "./session-list.ts";
import { useChatTurn } from "./chat-turn.ts";
import type { ChatBody } from "./chat-stream.ts";

useStylesheet("/dashboard/plugins/chat/chat.css");

function ChatPage() {
  const sessionId = useRoute().rest[0];
  const { turn, send, clear } = useChatTurn();
  // A turn that went on in the background has finished: its reply is in the session now.
  useLive(["chat.turn.finished"], (message) => {
    const turnOf = message.type === "event" ? (message.payload.turn as { sessionId?: unknown } | undefined) : undefined;
    if (turnOf?.sessionId === sessionId) clear();
  });
  const [version, setVersion] = useState(0);
  const session = useResource(() => (sessionId ? muster.getChatSessionsById({ id: sessionId, query: { limit: 1_000 } }) : Promise.resolve(undefined)), {
    events: ["chat.turn.*"],
    deps: [sessionId],
  });
  const agents = useResource(() => muster.getAgents().then((r) => r.agents.map((a) => a.id)).catch(() => [] as string[]));
  // While a turn streams, the stored messages are those from before it (the live copy shows the rest).
  const before = useRef<readonly ChatMessage[]>([]);
  const stored = session.data?.messages ?? [];
  const streaming = turn !== null && !turn.ended;
  const shown = streaming ? before.current : stored;

  const start = (body: ChatBody) => {
    before.current = body.sessionId ? stored : [];
    return send(body, {
      onSession: (id) => {
        setVersion((v) => v + 1);
        if (id !== sessionId) navigate(pageHref("chat", id));
      },
      onEnd: async () => {
        setVersion((v) => v + 1);
        await session.reload();
      },
    });
  };

  const info = session.data?.session;
  const party = info?.mode === "party";
  const title = sessionId ? (info?.title ?? "Conversation") : "New conversation";
  return html`<div class="chat-page">
    <${PageHeader} title="Conversations" description="Chat with an agent or a party of agents; replies stream in." actions=${html`<a class="button" href=${pageHref("chat")}>New conversation</a>`} />
    <div class="chat-layout">
      <${Section} title=${title} class="chat-main"
        actions=${info ? html`<${Badge} tone="info">${party ? `Party: ${info.agentIds.join(", ")}` : info.agentIds[0]}<//>
          <${ActionButton} label="Delete conversation" tone="danger" confirm="Delete this conversation and its messages?"
            onAction=${async () => { await muster.deleteChatSessionsById({ id: info.id }); navigate(pageHref("chat")); }} />` : null}>
        <${ErrorNote} error=${session.error} />
        ${sessionId && !info && !session.error ? html`<p class="meta" aria-live="polite">Loading the conversation…</p>` : null}
        ${!sessionId || info ? html`<${ChatMessages} messages=${sessionId ? shown : []} turn=${turn} party=${party || (turn?.replies.some((r) => r.round > 1) ?? false)} />` : null}
        ${sessionId ? html`<${ExecApprovals} sessionId=${sessionId} />` : null}
        ${!sessionId
          ? html`<${NewConversation} send=${start} knownAgents=${agents.data ?? []} />`
          : info
            ? html`<${FollowUp} party=${party}
                send=${(message: string, rounds: number) => start(party ? { mode: "party", agentIds: info.agentIds, rounds, message, sessionId: info.id } : { agentId: info.agentIds[0] ?? "", message, sessionId: info.id })} />`
            : null}
      <//>
      <${Section} title="Sessions" class="chat-sessions"><${SessionList} current=${sessionId} version=${version} /><//>
    </div>
  </div>`;
}

export default mountComponent(ChatPage);
