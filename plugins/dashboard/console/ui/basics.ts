// Small pieces every page uses: page and section headings, an error line carrying the API's
// code, relative times, badges and the empty state.
import { useEffect, useRef } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { html } from "../html.ts";
import { errorText } from "../client.ts";

/** The page's `<h1>` (focused when the page opens, so a screen reader announces the new place) and its actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: ComponentChildren; actions?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus({ preventScroll: true }), [title]);
  return html`<header class="page-head">
    <div>
      <h1 tabindex="-1" ref=${heading}>${title}</h1>
      ${description ? html`<p class="meta">${description}</p>` : null}
    </div>
    ${actions ? html`<div class="page-actions">${actions}</div>` : null}
  </header>`;
}

let sectionIds = 0;
/** A titled region of a page (`<section aria-labelledby>` with an `<h2>`). */
export function Section({ title, actions, children, id, class: extra }: { title: string; actions?: ComponentChildren; children?: ComponentChildren; id?: string; class?: string }) {
  const headingId = useRef(`section-${++sectionIds}`).current;
  return html`<section class=${`panel ${extra ?? ""}`} aria-labelledby=${headingId} id=${id}>
    <div class="panel-head"><h2 id=${headingId}>${title}</h2>${actions ? html`<div class="panel-actions">${actions}</div>` : null}</div>
    ${children}
  </section>`;
}

/** The error as `CODE: message`, announced; nothing when there is none. */
export function ErrorNote({ error, prefix }: { error: unknown; prefix?: string }) {
  if (error === undefined || error === null) return null;
  return html`<p class="error" role="alert">${prefix ? `${prefix} ` : ""}${errorText(error)}</p>`;
}

export function Empty({ children }: { children: ComponentChildren }) {
  return html`<p class="empty">${children}</p>`;
}

export type Tone = "ok" | "warn" | "bad" | "info" | "muted";
export function Badge({ tone = "muted", children, title }: { tone?: Tone; children: ComponentChildren; title?: string }) {
  return html`<span class=${`badge ${tone}`} title=${title}>${children}</span>`;
}

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
/** "3 minutes ago" for an ISO timestamp or epoch milliseconds. */
export function ago(when: string | number | null | undefined): string {
  const ms = typeof when === "number" ? when : Date.parse(String(when));
  if (!Number.isFinite(ms)) return "";
  let value = Math.round((ms - Date.now()) / 1000);
  for (const [size, unit] of [[60, "second"], [60, "minute"], [24, "hour"], [7, "day"], [Infinity, "week"]] as const) {
    if (Math.abs(value) < size) return RELATIVE.format(value, unit);
    value = Math.round(value / size);
  }
  return "";
}

/** A relative `<time>` with the exact instant as its tooltip. */
export function Time({ when }: { when: string | number | null | undefined }) {
  const ms = typeof when === "number" ? when : Date.parse(String(when));
  if (!Number.isFinite(ms)) return html`<span class="meta">—</span>`;
  return html`<time datetime=${new Date(ms).toISOString()} title=${new Date(ms).toLocaleString()}>${ago(ms)}</time>`;
}
