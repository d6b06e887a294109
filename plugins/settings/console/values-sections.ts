// What the settings plugin stores: key-value settings (any JSON; secret-like names are refused,
// secrets go in the vault) and autopilot goals.
import { html, muster, useResource, ActionButton, DataTable, ErrorNote, Field, Form } from "@muster/console";

type Goal = Awaited<ReturnType<typeof muster.getAutopilotGoals>>["goals"][number];
interface Setting {
  key: string;
  value: unknown;
}

/** The typed text as JSON when it is JSON (`42`, `true`, `{"a":1}`), else as the string itself. */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function KeyValueSection() {
  const settings = useResource(() => muster.getSettings());
  const rows: Setting[] | undefined = settings.data ? Object.entries(settings.data.settings).map(([key, value]) => ({ key, value })) : undefined;
  const save = async (fields: FormData) => {
    await muster.putSettingsByKey({ key: String(fields.get("key") ?? ""), body: { value: parseValue(String(fields.get("value") ?? "")) as never } });
    await settings.reload();
  };
  const remove = async (key: string) => {
    await muster.deleteSettingsByKey({ key });
    await settings.reload();
  };
  return html`<${ErrorNote} error=${settings.error} />
    <${DataTable} caption="Settings" captionHidden=${true} rows=${rows} rowKey=${(s: Setting) => s.key} pageSize=${50} empty="No settings yet."
      columns=${[
        { label: "Key", render: (s: Setting) => html`<code>${s.key}</code>` },
        { label: "Value", render: (s: Setting) => html`<code>${JSON.stringify(s.value)}</code>` },
        { label: "Actions", render: (s: Setting) => html`<${ActionButton} label="Delete" ariaLabel=${`Delete setting ${s.key}`} tone="danger" confirm=${`Delete ${s.key}?`} onAction=${() => remove(s.key)} />` },
      ]} />
    <${Form} label="Set a setting" submitLabel="Save setting" onSubmit=${save} class="inline">
      <${Field} label="Key" name="key" required=${true} hint="Lower case letters, digits, . _ -" autocomplete="off" />
      <${Field} label="Value" name="value" required=${true} hint="JSON (42, true, {…}) or plain text" autocomplete="off" />
    <//>`;
}

export function GoalsSection() {
  const goals = useResource(() => muster.getAutopilotGoals());
  const save = async (fields: FormData) => {
    const description = String(fields.get("description") ?? "").trim();
    await muster.postAutopilotGoals({
      body: { title: String(fields.get("title") ?? ""), description: description || null, priority: String(fields.get("priority")) as Goal["priority"] },
    });
    await goals.reload();
  };
  const setStatus = async (goal: Goal, status: Goal["status"]) => {
    await muster.postAutopilotGoals({ body: { id: goal.id, title: goal.title, status } });
    await goals.reload();
  };
  const remove = async (goal: Goal) => {
    await muster.deleteAutopilotGoals({ query: { id: goal.id } });
    await goals.reload();
  };
  return html`<${ErrorNote} error=${goals.error} />
    <${DataTable} caption="Autopilot goals" captionHidden=${true} rows=${goals.data?.goals} rowKey=${(g: Goal) => g.id} pageSize=${25} empty="No goals yet."
      columns=${[
        { label: "Goal", render: (g: Goal) => html`<strong>${g.title}</strong>${g.description ? html`<br /><span class="meta">${g.description}</span>` : null}` },
        { label: "Priority", key: "priority" },
        { label: "Status", key: "status" },
        {
          label: "Actions",
          render: (g: Goal) => html`<div class="row-actions">
            ${g.status === "active"
              ? html`<${ActionButton} label="Pause" ariaLabel=${`Pause goal ${g.title}`} onAction=${() => setStatus(g, "paused")} />`
              : html`<${ActionButton} label="Resume" ariaLabel=${`Resume goal ${g.title}`} onAction=${() => setStatus(g, "active")} />`}
            <${ActionButton} label="Delete" ariaLabel=${`Delete goal ${g.title}`} tone="danger" confirm=${`Delete the goal ${g.title}?`} onAction=${() => remove(g)} />
          </div>`,
        },
      ]} />
    <${Form} label="Add an autopilot goal" submitLabel="Add goal" onSubmit=${save}>
      <${Field} label="Title" name="title" required=${true} />
      <${Field} as="textarea" label="Description" name="description" rows=${2} />
      <${Field} as="select" label="Priority" name="priority" value="high" options=${["low", "medium", "high", "critical"]} />
    <//>`;
}
