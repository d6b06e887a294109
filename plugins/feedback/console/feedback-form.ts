// The form that gives an agent feedback: the agent (from the crew; a typed id when the crew
// is empty), an optional task, the kind, the feedback and optional context. The new entry
// arrives in the list through the live stream (`feedback.entry.created`).
import { html, muster, Field, Form } from "@muster/console";
import { agentLabel, FEEDBACK_TYPES, type CrewAgent, type FeedbackType } from "./feedback-data.ts";

const text = (fields: FormData, name: string) => String(fields.get(name) ?? "").trim();

export function FeedbackForm({ crew, agent, onGiven }: { crew: readonly CrewAgent[] | undefined; agent: string | undefined; onGiven: () => void }) {
  const submit = async (fields: FormData) => {
    const taskId = text(fields, "taskId");
    const context = text(fields, "context");
    await muster.postFeedback({
      body: {
        agentId: text(fields, "agentId"),
        type: text(fields, "type") as FeedbackType,
        // Sent as typed (not trimmed): the API says why blank feedback is refused.
        content: String(fields.get("content") ?? ""),
        ...(taskId ? { taskId } : {}),
        ...(context ? { context } : {}),
      },
    });
    onGiven();
  };
  const agentField =
    crew && crew.length > 0
      ? html`<${Field} as="select" label="Agent" name="agentId" value=${agent ?? crew[0]!.id} required=${true} options=${crew.map((a) => ({ value: a.id, label: agentLabel(a.id, crew) }))} />`
      : html`<${Field} label="Agent id" name="agentId" value=${agent} required=${true} hint="No crew is listed; type the agent's id." autocomplete="off" />`;
  return html`<${Form} label="Give an agent feedback" submitLabel="Give feedback" onSubmit=${submit} class="feedback-form">
    ${agentField}
    <${Field} as="select" label="Type" name="type" value="correction" options=${FEEDBACK_TYPES.map((t) => ({ value: t.value, label: t.label }))} />
    <${Field} label="Task (optional)" name="taskId" hint="The task's id, e.g. from the Tasks page." autocomplete="off" />
    <${Field} as="textarea" label="Feedback" name="content" required=${true} rows=${4} hint="Appended to the agent's learnings file." />
    <${Field} as="textarea" label="Context (optional)" name="context" rows=${2} />
  <//>`;
}
