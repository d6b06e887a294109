// The Documents page (`/console/documents?category=ADR`): the workspace's markdown and YAML
// files newest first, filtered by category (the filter in the address, a count per
// category); `/console/documents/<encoded path>` reads one as text (agent-written: never
// rendered as HTML). Live: reloads when a workspace file changes or a skill is imported.
import { html, muster, mountComponent, pageHref, useResource, useRoute, useStylesheet, Badge, DataTable, ErrorNote, PageHeader, Section, Time } from "@muster/console";
import { byteSize, categoryHref, CategoryLinks, DocumentView, isCategory, newestFirst, type DocCategory, type ListedDocument } from "./document-parts.ts";

/** The most GET /api/docs/index lists at once (its limit's maximum); "Show more" draws them 50 at a time. */
const MAX_LISTED = 10_000;
const LIVE = ["file_change", "skills.skill.imported"];

function OneDocument({ path, backHref }: { path: string; backHref: string }) {
  const found = useResource(() => muster.getDocs({ query: { path } }), { deps: [path], events: LIVE });
  const document = found.data?.[0];
  return html`<div class="stack">
    <${ErrorNote} error=${found.error} />
    ${found.data && !document ? html`<p class="error" role="alert">No document at ${path} (a markdown or YAML file of the workspace).</p>` : null}
    ${document ? html`<${DocumentView} document=${document} backHref=${backHref} />` : null}
    ${found.loading && !found.data && !found.error ? html`<p class="meta" aria-live="polite">Loading the document…</p>` : null}
  </div>`;
}

/** The list's columns; a document's link keeps the chosen category, so "All documents" returns to it. */
const columnsFor = (category: DocCategory | "") => [
  {
    label: "Document",
    render: (d: ListedDocument) => html`<a href=${`${pageHref("documents", d.path)}${category ? `?category=${category}` : ""}`}>${d.name}</a><br /><code class="doc-path">${d.path}</code>`,
  },
  { label: "Category", render: (d: ListedDocument) => html`<${Badge} tone="info">${d.category}<//>`, class: "doc-category" },
  { label: "Size", render: (d: ListedDocument) => byteSize(d.size), class: "numeric" },
  { label: "Changed", render: (d: ListedDocument) => html`<${Time} when=${d.modifiedAt} />` },
];

function DocumentList({ category }: { category: DocCategory | "" }) {
  // The index (GET /api/docs/index) stats the files without reading them: true counts per
  // category, and a list of thousands that costs no file contents.
  const index = useResource(() => muster.getDocsIndex({ query: { limit: MAX_LISTED, ...(category ? { category } : {}) } }), { deps: [category], events: LIVE });
  const listed = index.data?.documents;
  const unlisted = index.data ? index.data.total - index.data.documents.length : 0;
  return html`<${Section} title=${category ? `${category} documents` : "All documents"}>
    <${CategoryLinks} current=${category} counts=${index.data?.counts} />
    <${ErrorNote} error=${index.error} />
    ${unlisted > 0 ? html`<p class="meta">The ${MAX_LISTED} newest are listed; ${unlisted} older ones are not.</p>` : null}
    <${DataTable} caption=${category ? `${category} documents` : "Workspace documents"} captionHidden=${true} rows=${listed && newestFirst(listed)} rowKey=${(d: ListedDocument) => d.path}
      columns=${columnsFor(category)} pageSize=${50} empty=${category ? `No ${category} documents.` : "No markdown or YAML files in the workspace yet."} />
  <//>`;
}

function DocumentsPage() {
  useStylesheet("/dashboard/plugins/memory/documents.css");
  const route = useRoute();
  const asked = route.query.get("category");
  const category = isCategory(asked) ? asked : "";
  const path = route.rest[0];
  return html`<div class="page documents" data-page="documents">
    <${PageHeader} title="Documents" description="The workspace's markdown and YAML files by category, newest first." />
    ${asked && !category ? html`<p class="error" role="alert">Unknown category “${asked}”: showing all documents.</p>` : null}
    ${path ? html`<${OneDocument} path=${path} backHref=${categoryHref(category)} />` : html`<${DocumentList} category=${category} />`}
  </div>`;
}

export default mountComponent(DocumentsPage);
