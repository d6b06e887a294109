// Start a council (topic, 2-7 members, 1-5 rounds) and the councils so far, newest first.
import { html, muster, useResource, navigate, pageHref, Form, Field, DataTable, ErrorNote, Badge, Time, Section, type Muster } from "@muster/console";
import { StatusBadge } from "./council-status.ts";

type CouncilRow = Awaited<ReturnType<Muster["getCouncilSession"]>>["sessions"][number];

const ROUNDS = ["1", "2", "3", "4", "5"].map((n) => ({ value: n, label: n === "1" ? "1 round" : `${n} rounds` }));

function StartCouncil() {
  const submit = async (fields: FormData) => {
    const agents = String(fields.get("agents") ?? "").split(/[\s,]+/).filter(Boolean);
    const { session } = await muster.postCouncilSession({ body: { topic: String(fields.get("topic") ?? ""), agents, rounds: Number(fields.get("rounds") ?? 2) } });
    navigate(pageHref("councils", session.id));
  };
  return html`<${Form} label="Start a council" submitLabel="Start council" onSubmit=${submit}>
    <${Field} label="Topic" name="topic" as="textarea" rows=${2} required hint="The question the members deliberate on and vote about." />
    <${Field} label="Members" name="agents" required autocomplete="off" hint="2 to 7 agent ids, separated by commas; the first one is the moderator who writes the proposal." />
    <${Field} label="Rounds" name="rounds" as="select" value="2" options=${ROUNDS} />
  <//>`;
}

export function CouncilList() {
  const sessions = useResource(() => muster.getCouncilSession({ query: { limit: 500 } }), { events: ["council.session.*"] });
  const columns = [
    { label: "Topic", render: (s: CouncilRow) => html`<a href=${pageHref("councils", s.id)}>${s.topic}</a>` },
    { label: "Status", render: (s: CouncilRow) => html`<${StatusBadge} session=${s} />` },
    { label: "Members", render: (s: CouncilRow) => s.agents.join(", ") },
    { label: "Started", render: (s: CouncilRow) => html`<${Time} when=${s.createdAt} />` },
  ];
  return html`<div class="grid-2 council-home">
    <${Section} title="Start a council"><${StartCouncil} /><//>
    <${Section} title="Councils" actions=${sessions.data ? html`<${Badge}>${sessions.data.sessions.length}<//>` : null}>
      <${ErrorNote} error=${sessions.error} />
      <${DataTable} caption="Council sessions" captionHidden columns=${columns} rows=${sessions.data?.sessions} rowKey=${(s: CouncilRow) => s.id} empty="No council has met yet." pageSize=${25} />
    <//>
  </div>`;
}
