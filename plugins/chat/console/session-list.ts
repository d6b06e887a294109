// Stored chat sessions, most recently active first; each opens at /console/chat/<id>.
import { html, muster, useResource, DataTable, ErrorNote, Time, pageHref, type Muster } from "@muster/console";

type SessionRow = Awaited<ReturnType<Muster["getChatSessions"]>>["sessions"][number];

/** `version` changes when this page started or finished a turn, so the list follows it without waiting for an event. */
export function SessionList({ current, version }: { current: string | undefined; version: number }) {
  const sessions = useResource(() => muster.getChatSessions({ query: { limit: 200 } }), { events: ["chat.turn.*"], deps: [version] });
  const columns = [
    {
      label: "Conversation",
      render: (s: SessionRow) => html`<a href=${pageHref("chat", s.id)} aria-current=${s.id === current ? "page" : undefined}>${s.title || "(untitled)"}</a>`,
    },
    { label: "Agents", render: (s: SessionRow) => `${s.mode === "party" ? "Party: " : ""}${s.agentIds.join(", ")}` },
    { label: "Active", render: (s: SessionRow) => html`<${Time} when=${s.updatedAt} />` },
  ];
  return html`<div>
    <${ErrorNote} error=${sessions.error} />
    <${DataTable} caption="Stored conversations" captionHidden columns=${columns} rows=${sessions.data?.sessions} rowKey=${(s: SessionRow) => s.id}
      empty="No conversations yet." pageSize=${20} />
  </div>`;
}
