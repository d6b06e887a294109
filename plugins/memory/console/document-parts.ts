// Pieces of the Documents page: the document type, sizes as people read them, the category
// links (the filter lives in the address) and one document read as text.
import { html, pageHref, Badge, Section, Time } from "@muster/console";
import type { Muster } from "@muster/console";

export type WorkspaceDocument = Awaited<ReturnType<Muster["getDocs"]>>[number];
export type DocumentIndex = Awaited<ReturnType<Muster["getDocsIndex"]>>;
/** A document as the list shows it: what the index tells without reading the file. */
export type ListedDocument = DocumentIndex["documents"][number];
export type DocCategory = WorkspaceDocument["category"];

/** The spec's categories, in its order. */
export const CATEGORIES: readonly DocCategory[] = ["Journal", "Insights", "Transcription", "ADR", "Report", "Other"];
export const isCategory = (value: string | null): value is DocCategory => CATEGORIES.includes(value as DocCategory);

const number = new Intl.NumberFormat();
/** "812 B", "12.4 KB", "3.1 MB" (powers of 1024). */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${number.format(bytes)} B`;
  const kb = bytes / 1024;
  return kb < 1024 ? `${kb.toFixed(1)} KB` : `${(kb / 1024).toFixed(1)} MB`;
}

export const newestFirst = (documents: readonly ListedDocument[]) => [...documents].sort((a, b) => Date.parse(b.modifiedAt) - Date.parse(a.modifiedAt) || (a.path < b.path ? -1 : 1));

const categoryHref = (category: DocCategory | "") => `${pageHref("documents")}${category ? `?category=${category}` : ""}`;

/** "All (12)", "Journal (3)", …: links, so a filtered list can be linked and survives a reload. */
export function CategoryLinks({ current, counts }: { current: DocCategory | ""; counts: DocumentIndex["counts"] | undefined }) {
  const all = counts ? CATEGORIES.reduce((sum, category) => sum + (counts[category] ?? 0), 0) : undefined;
  const link = (category: DocCategory | "", label: string, n: number | undefined) =>
    html`<li key=${label}><a href=${categoryHref(category)} aria-current=${current === category ? "page" : undefined}>${label}${n === undefined ? "" : ` (${number.format(n)})`}</a></li>`;
  return html`<nav aria-label="Document categories" class="doc-categories">
    <ul>${link("", "All", all)}${CATEGORIES.filter((category) => category === current || !counts || (counts[category] ?? 0) > 0).map((category) => link(category, category, counts?.[category]))}</ul>
  </nav>`;
}

/** One document: where it is, its size, words and time changed, and its content as text. */
export function DocumentView({ document, backHref }: { document: WorkspaceDocument; backHref: string }) {
  return html`<${Section} title=${document.name}>
    <p class="meta"><code>${document.path}</code> · <${Badge} tone="info">${document.category}<//> · ${byteSize(document.size)} · ${number.format(document.wordCount)} words · changed <${Time} when=${document.modifiedAt} /> · <a href=${backHref}>All documents</a></p>
    ${document.binary
      ? html`<p class="meta">This is a binary file with a text name; its content is not shown.</p>`
      : html`<pre class="output document-text" aria-label=${`Text of ${document.path}`}>${document.content}</pre>`}
    ${document.truncated ? html`<p class="meta">Only the first part of the file is shown.</p>` : null}
  <//>`;
}

export { categoryHref };
