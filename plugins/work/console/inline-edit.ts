// Fields changed in place in a table row: a select saved on change, a text shown as text (or a
// link) with an "Edit" button that turns it into an input saved by Enter or "Save". A refusal
// shows the API's code next to the field and keeps what was typed. The input is uncontrolled
// (defaultValue): a live reload of the list while someone types must not put the old text back.
import { ErrorNote, html, useEffect, useRef, useState } from "@muster/console";

export function InlineSelect({ label, what, value, options, onSave }: { label: string; what: string; value: string; options: readonly string[]; onSave: (value: string) => Promise<unknown> }) {
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const change = async (event: Event) => {
    const select = event.currentTarget as HTMLSelectElement;
    setBusy(true);
    setError(undefined);
    try {
      await onSave(select.value);
    } catch (caught) {
      select.value = value;
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="inline-edit">
    <select aria-label=${`${label} of ${what}`} value=${value} disabled=${busy} onChange=${change}>
      ${options.map((option) => html`<option value=${option}>${option.replace("_", " ")}</option>`)}
    </select>
    <${ErrorNote} error=${error} />
  </div>`;
}

export function InlineText({ label, what, value, href, onSave }: { label: string; what: string; value: string; href?: string; onSave: (value: string) => Promise<unknown> }) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const edit = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (editing) input.current?.focus();
    else if (wasEditing.current) edit.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  if (!editing) {
    return html`<div class="inline-edit">
      ${href ? html`<a class="inline-value" href=${href}>${value}</a>` : html`<span class="inline-value">${value || html`<span class="meta">—</span>`}</span>`}
      <button type="button" class="button plain small" ref=${edit} aria-label=${`Edit ${label.toLowerCase()} of ${what}`} onClick=${() => setEditing(true)}>Edit</button>
    </div>`;
  }
  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await onSave(input.current?.value ?? "");
      setEditing(false);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="inline-edit" onSubmit=${save} onKeyDown=${(event: KeyboardEvent) => event.key === "Escape" && setEditing(false)}>
    <input ref=${input} aria-label=${`${label} of ${what}`} defaultValue=${value} disabled=${busy} />
    <button type="submit" class="button primary small" disabled=${busy} aria-label=${`Save ${label.toLowerCase()} of ${what}`}>Save</button>
    <button type="button" class="button plain small" onClick=${() => setEditing(false)}>Cancel</button>
    <${ErrorNote} error=${error} />
  </form>`;
}
