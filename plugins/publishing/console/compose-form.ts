// Composing a draft: title, text, platforms (with the live preview against their limits) and
// an optional time to publish. Saving creates the draft; sending it for approval is a step of
// the drafts list, because nothing leaves the workspace without the approval.
import { html, muster, useState, Field, Form } from "@muster/console";
import { LimitsPreview, type PlatformInfo } from "./platform-limits.ts";

export function ComposeForm({ platforms, onSaved }: { platforms: readonly PlatformInfo[]; onSaved: () => void }) {
  const [text, setText] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const toggle = (id: string, on: boolean) => setChosen((now) => (on ? [...now.filter((p) => p !== id), id] : now.filter((p) => p !== id)));
  const save = async (fields: FormData) => {
    const when = String(fields.get("scheduledAt") ?? "");
    const title = String(fields.get("title") ?? "").trim();
    await muster.postContentDrafts({
      body: { text: String(fields.get("text") ?? ""), platforms: chosen, ...(title ? { title } : {}), ...(when ? { scheduledAt: new Date(when).toISOString() } : {}) },
    });
    setText("");
    setChosen([]);
    onSaved();
  };
  return html`<${Form} label="Compose a draft" submitLabel="Save draft" onSubmit=${save}>
    <${Field} label="Title" name="title" />
    <${Field} label="Text" name="text" as="textarea" rows=${5} required=${true} value=${text} onInput=${setText} />
    <fieldset class="platform-choice">
      <legend>Platforms</legend>
      ${platforms.map(
        (p) => html`<label key=${p.id}><input type="checkbox" name="platform" value=${p.id} checked=${chosen.includes(p.id)}
          onChange=${(event: Event) => toggle(p.id, (event.currentTarget as HTMLInputElement).checked)} /> ${p.name}</label>`,
      )}
    </fieldset>
    <${LimitsPreview} text=${text} platforms=${platforms.filter((p) => chosen.includes(p.id))} />
    <${Field} label="Publish at (optional)" name="scheduledAt" type="datetime-local" hint="Empty: as soon as the approval is granted." />
  <//>`;
}
