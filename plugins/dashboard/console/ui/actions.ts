// Buttons that call the API: busy while the call runs, the API's code and message shown when
// it refuses, and an optional second step for anything that cannot be undone. Forms that
// submit once, keep what was typed when refused, and say why.
import { useRef, useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { html } from "../html.ts";
import { ErrorNote } from "./basics.ts";

export interface ActionButtonProps {
  /** The visible text and accessible name: says what the button does ("Approve", "Delete secret"). */
  label: string;
  onAction: () => Promise<unknown> | unknown;
  tone?: "primary" | "danger" | "plain";
  /** When set, the first click asks this question and only "Yes, <label>" runs the action. */
  confirm?: string;
  disabled?: boolean;
  /** A longer accessible name when the label alone is ambiguous in a list ("Approve “Publish the post”"). */
  ariaLabel?: string;
}

export function ActionButton({ label, onAction, tone = "plain", confirm, disabled, ariaLabel }: ActionButtonProps) {
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = async () => {
    setAsking(false);
    setBusy(true);
    setError(undefined);
    try {
      await onAction();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  if (asking) {
    return html`<span class="confirm" role="group" aria-label=${confirm}>
      <span class="confirm-question">${confirm}</span>
      <button type="button" class=${`button ${tone}`} onClick=${run}>${`Yes, ${label.toLowerCase()}`}</button>
      <button type="button" class="button plain" onClick=${() => setAsking(false)}>Cancel</button>
    </span>`;
  }
  return html`<span class="action">
    <button type="button" class=${`button ${tone}`} aria-label=${ariaLabel} disabled=${disabled || busy} aria-busy=${busy ? "true" : undefined}
      onClick=${() => (confirm ? setAsking(true) : run())}>${label}</button>
    <${ErrorNote} error=${error} />
  </span>`;
}

export interface FormProps {
  /** The submit button's text and accessible name ("Create task"). */
  submitLabel: string;
  /** Called with the form's fields; a thrown error is shown under the form, and the fields are kept. */
  onSubmit: (fields: FormData) => Promise<unknown> | unknown;
  /** The form's accessible name. */
  label: string;
  children: ComponentChildren;
  /** Clears the fields after a successful submit (default true). */
  resetOnSuccess?: boolean;
  class?: string;
}

export function Form({ submitLabel, onSubmit, label, children, resetOnSuccess = true, class: extra }: FormProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const form = useRef<HTMLFormElement>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy || !form.current) return;
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(new FormData(form.current));
      if (resetOnSuccess) form.current?.reset();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class=${`form ${extra ?? ""}`} aria-label=${label} ref=${form} onSubmit=${submit}>
    ${children}
    <div class="form-actions"><button type="submit" class="button primary" disabled=${busy} aria-busy=${busy ? "true" : undefined}>${submitLabel}</button></div>
    <${ErrorNote} error=${error} />
  </form>`;
}

let fieldIds = 0;
export interface FieldProps {
  label: string;
  name: string;
  hint?: string;
  type?: string;
  value?: string | number;
  required?: boolean;
  placeholder?: string;
  /** `textarea` and `select` besides `input`. */
  as?: "input" | "textarea" | "select";
  options?: readonly (string | { value: string; label: string })[];
  rows?: number;
  min?: number;
  max?: number;
  step?: number | string;
  autocomplete?: string;
  onInput?: (value: string) => void;
}

/** A labelled form control (the label names it; the hint describes it). */
export function Field({ label, name, hint, as = "input", options = [], value, onInput, ...rest }: FieldProps) {
  const id = useRef(`field-${++fieldIds}`).current;
  const input = (event: Event) => onInput?.((event.currentTarget as HTMLInputElement).value);
  const control =
    as === "select"
      ? html`<select id=${id} name=${name} value=${value} required=${rest.required} aria-describedby=${hint ? `${id}-hint` : undefined} onInput=${input}>
          ${options.map((option) => (typeof option === "string" ? html`<option value=${option}>${option}</option>` : html`<option value=${option.value}>${option.label}</option>`))}
        </select>`
      : as === "textarea"
        ? html`<textarea id=${id} name=${name} value=${value} rows=${rest.rows ?? 4} required=${rest.required} placeholder=${rest.placeholder} aria-describedby=${hint ? `${id}-hint` : undefined} onInput=${input}></textarea>`
        : html`<input id=${id} name=${name} value=${value} ...${rest} aria-describedby=${hint ? `${id}-hint` : undefined} onInput=${input} />`;
  return html`<div class="field">
    <label for=${id}>${label}</label>
    ${control}
    ${hint ? html`<p class="hint" id=${`${id}-hint`}>${hint}</p>` : null}
  </div>`;
}
