// The Memory page (`/console/memory`): the daily memory files (newest first) and the long-term
// file MEMORY.md; `/console/memory/<date>` reads one day. Contents are agent-written markdown:
// shown as preformatted text, never as HTML.
import { html, muster, mountComponent, pageHref, useResource, useRoute, useStylesheet, DataTable, ErrorNote, PageHeader, Section, Time } from "@muster/console";
import type { Muster } from "@muster/console";

type Day = Awaited<ReturnType<Muster["getMemory"]>>[number];

function Text({ content, truncated, label }: { content: string; truncated: boolean; label: string }) {
  return html`<pre class="output memory-text" aria-label=${label}>${content}</pre>${truncated ? html`<p class="meta">Only the first part of the file is shown.</p>` : null}`;
}

function DayView({ date, days }: { date: string; days: readonly Day[] | undefined }) {
  if (!days) return null;
  const day = days.find((d) => d.date === date);
  if (!day) return html`<p class="error" role="alert">No daily memory for ${date}.</p>`;
  return html`<${Section} title=${`Day ${date}`}>
    <p class="meta"><code>${day.path}</code> · ${day.wordCount} words · changed <${Time} when=${day.modifiedAt} /> · <a href=${pageHref("memory")}>All days</a></p>
    <${Text} content=${day.content} truncated=${day.truncated} label=${`Memory of ${date}`} />
  <//>`;
}

function LongTerm() {
  const file = useResource(() => muster.getMemoryLongterm(), { events: ["file_change"] });
  return html`<${Section} title="Long-term memory">
    <${ErrorNote} error=${file.error} />
    ${file.data ? html`<p class="meta"><code>${file.data.path}</code> · ${file.data.wordCount} words · changed <${Time} when=${file.data.modifiedAt} /></p>
      <${Text} content=${file.data.content} truncated=${file.data.truncated} label="Text of the long-term memory" />` : null}
  <//>`;
}

function MemoryPage() {
  useStylesheet("/dashboard/plugins/memory/memory.css");
  const route = useRoute();
  const days = useResource(() => muster.getMemory({ query: { limit: 365 } }), { events: ["file_change"] });
  const date = route.rest[0];
  const columns = [
    { label: "Day", render: (d: Day) => html`<a href=${pageHref("memory", d.date)}>${d.date}</a>` },
    { label: "Words", render: (d: Day) => String(d.wordCount) },
    { label: "Changed", render: (d: Day) => html`<${Time} when=${d.modifiedAt} />` },
  ];
  return html`<div class="page memory" data-page="memory">
    <${PageHeader} title="Memory" description="The crew's daily notes and the long-term memory file." />
    <${ErrorNote} error=${days.error} />
    <div class="stack">
      ${date
        ? html`<${DayView} date=${date} days=${days.data} />`
        : html`<div class="grid-2">
            <${Section} title="Days"><${DataTable} caption="Daily memory" captionHidden=${true} rows=${days.data} rowKey=${(d: Day) => d.path} columns=${columns} empty="No daily memory files (memory/YYYY-MM-DD.md) yet." /><//>
            <${LongTerm} />
          </div>`}
    </div>
  </div>`;
}

export default mountComponent(MemoryPage);
