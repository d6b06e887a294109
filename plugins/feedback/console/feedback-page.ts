// The Feedback page (`/console/feedback`, `?agent=<id>` for one agent): the entries newest
// first, filtered by agent, and the form that gives an agent feedback. Entries are
// agent-related text written by people and agents: shown as text, never as HTML.
import { html, muster, mountComponent, navigate, pageHref, useResource, useRoute, useState, useStylesheet, Badge, Empty, ErrorNote, PageHeader, Section, Time } from "@muster/console";
import { agentLabel, loadCrew, typeInfo, type CrewAgent, type FeedbackEntry } from "./feedback-data.ts";
import { FeedbackForm } from "./feedback-form.ts";

const PAGE = 50;
const MAX = 500;

function AgentFilter({ crew, agent }: { crew: readonly CrewAgent[] | undefined; agent: string | undefined }) {
  const ids = (crew ?? []).map((a) => a.id);
  if (agent && !ids.includes(agent)) ids.unshift(agent);
  const choose = (event: Event) => {
    const id = (event.currentTarget as HTMLSelectElement).value;
    navigate(id ? `${pageHref("feedback")}?agent=${encodeURIComponent(id)}` : pageHref("feedback"));
  };
  return html`<div class="toolbar feedback-filter">
    <label for="feedback-agent-filter">Show feedback for</label>
    <select id="feedback-agent-filter" value=${agent ?? ""} onChange=${choose}>
      <option value="">All agents</option>
      ${ids.map((id) => html`<option value=${id}>${agentLabel(id, crew)}</option>`)}
    </select>
  </div>`;
}

function Entry({ entry, crew }: { entry: FeedbackEntry; crew: readonly CrewAgent[] | undefined }) {
  const type = typeInfo(entry.type);
  return html`<li class="feedback-entry" data-entry=${entry.id}>
    <div class="feedback-entry-head">
      <${Badge} tone=${type.tone}>${type.label}<//>
      <a href=${pageHref("crew", entry.agentId)}>${agentLabel(entry.agentId, crew)}</a>
      ${entry.taskId ? html`<a href=${pageHref("tasks", entry.taskId)} aria-label=${`Task ${entry.taskId}`}>task ${entry.taskId}</a>` : null}
      <span class="meta"><${Time} when=${entry.createdAt} /></span>
    </div>
    <p class="feedback-content">${entry.content}</p>
    ${entry.context ? html`<p class="meta feedback-context">Context: ${entry.context}</p>` : null}
  </li>`;
}

function FeedbackPage() {
  useStylesheet("/dashboard/plugins/feedback/feedback.css");
  const route = useRoute();
  const agent = route.query.get("agent") || undefined;
  const [limit, setLimit] = useState(PAGE);
  const crew = useResource(loadCrew, { events: ["agents.*"] });
  const entries = useResource(() => muster.getFeedback({ query: { ...(agent ? { agent } : {}), limit } }), { events: ["feedback.entry.created"], deps: [agent, limit] });
  const list = entries.data?.entries;
  const more = list !== undefined && list.length === limit && limit < MAX;
  return html`<div class="page feedback" data-page="feedback">
    <${PageHeader} title="Feedback" description="What the crew was told: corrections, praise, patterns and rules, each appended to the agent's learnings file." />
    <div class="grid-2">
      <${Section} title=${agent ? `Feedback for ${agentLabel(agent, crew.data)}` : "All feedback"}>
        <${AgentFilter} crew=${crew.data} agent=${agent} />
        <${ErrorNote} error=${entries.error} />
        ${list === undefined
          ? html`<p class="meta" aria-live="polite">Loading feedback…</p>`
          : list.length === 0
            ? html`<${Empty}>${agent ? `No feedback for ${agent} yet.` : "No feedback yet."}<//>`
            : html`<ol class="feedback-list" aria-label="Feedback entries, newest first">${list.map((entry) => html`<${Entry} key=${entry.id} entry=${entry} crew=${crew.data} />`)}</ol>`}
        ${more ? html`<button type="button" class="button plain more" onClick=${() => setLimit(Math.min(limit + PAGE, MAX))}>Show more feedback</button>` : null}
      <//>
      <${Section} title="Give feedback">
        <${ErrorNote} error=${crew.error} prefix="The crew could not be listed:" />
        <${FeedbackForm} key=${agent ?? ""} crew=${crew.data} agent=${agent} onGiven=${() => void entries.reload()} />
      <//>
    </div>
  </div>`;
}

export default mountComponent(FeedbackPage);
