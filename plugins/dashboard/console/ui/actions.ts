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

/**
 * A labelled form control (the label names it; the hint describes it). With `onInput` the caller
 * owns the value (controlled); without it `value` is only the initial value, so a page that
 * draws again (a live event) never puts back what the user has typed over.
 */
export function Field({ label, name, hint, as = "input", options = [], value, onInput, ...rest }: FieldProps) {
  const id = useRef(`field-${++fieldIds}`).current;
  const controlled = onInput !== undefined;
  const input = (event: Event) => onInput?.((event.currentTarget as HTMLInputElement).value);
  const described = hint ? `${id}-hint` : undefined;
  const initial = controlled ? { value } : { defaultValue: value };
  const optionOf = (option: string | { value: string; label: string }) => {
    const { value: optionValue, label: optionLabel } = typeof option === "string" ? { value: option, label: option } : option;
    return html`<option value=${optionValue} selected=${!controlled && value !== undefined ? String(value) === optionValue : undefined}>${optionLabel}</option>`;
  };
  const control =
    as === "select"
      ? html`<select id=${id} name=${name} value=${controlled ? value : undefined} required=${rest.required} aria-describedby=${described} onInput=${input}>${options.map(optionOf)}</select>`
      : as === "textarea"
        ? html`<textarea id=${id} name=${name} ...${initial} rows=${rest.rows ?? 4} required=${rest.required} placeholder=${rest.placeholder} aria-describedby=${described} onInput=${input}></textarea>`
        : html`<input id=${id} name=${name} ...${initial} ...${rest} aria-describedby=${described} onInput=${input} />`;
  return html`<div class="field">
    <label for=${id}>${label}</label>
    ${control}
    ${hint ? html`<p class="hint" id=${described}>${hint}</p>` : null}
  </div>`;
}
