// The "Stand-up" console page (/console/standup): the crew's notes of any day, blocked agents
// first. Plain browser JavaScript shipped as is; `@muster/console` (the console's kit: Preact
// with htm, hooks, components, an untyped `api` for this plugin's own routes) comes from the
// console's import map. Agents' text is interpolated by htm, so it is always text, never HTML.
import { api, DataTable, ErrorNote, Field, html, mountComponent, PageHeader, useResource, useState } from "@muster/console";

const today = () => new Date().toISOString().slice(0, 10);

function StandupPage() {
  const [day, setDay] = useState(today());
  const notes = useResource(() => api.get(`/api/standup?day=${encodeURIComponent(day)}`), { events: ["standup.note.posted"], deps: [day] });
  const rows = notes.data ? [...notes.data.notes].sort((a, b) => Number(b.blockers !== "") - Number(a.blockers !== "")) : undefined;
  return html`<div class="page">
    <${PageHeader} title="Stand-up" description="What each agent did yesterday, plans today, and what blocks it." />
    <div class="toolbar"><${Field} label="Day" name="day" type="date" value=${day} onInput=${(value) => value && setDay(value)} /></div>
    <${ErrorNote} error=${notes.error} />
    <${DataTable}
      caption=${`Notes of ${day}`}
      rows=${rows}
      rowKey=${(note) => note.agent}
      empty="No stand-up notes that day."
      columns=${[
        { label: "Agent", key: "agent" },
        { label: "Yesterday", key: "yesterday" },
        { label: "Today", key: "today" },
        { label: "Blocked by", render: (note) => (note.blockers ? html`<span class="badge bad">${note.blockers}</span>` : "—") },
      ]}
    />
  </div>`;
}

export default mountComponent(StandupPage);
