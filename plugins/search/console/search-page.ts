// The Search page (`/console/search?q=…&mode=semantic`): full-text search of the workspace
// (GET /api/search) or semantic search of the indexed memory (GET /api/memory/rag), with the
// excerpts as text. The query lives in the URL, so a link or a reload repeats the search.
import { html, muster, mountComponent, navigate, pageHref, useResource, useRoute, useStylesheet, Badge, Empty, ErrorNote, PageHeader, Section } from "@muster/console";

type Mode = "fulltext" | "semantic";

interface Hit {
  path: string;
  excerpt: string;
  /** Full text: the file's title and category; semantic: the lines the chunk covers. */
  detail: string;
  score: number;
}

async function find(q: string, mode: Mode): Promise<{ hits: Hit[]; summary: string } | null> {
  if (!q) return null;
  if (mode === "semantic") {
    const answer = await muster.getMemoryRag({ query: { q, limit: 20 } });
    return {
      hits: answer.results.map((r) => ({ path: r.path, excerpt: r.excerpt, detail: `lines ${r.startLine}–${r.endLine}`, score: r.score })),
      summary: `${answer.results.length} passages (${answer.mode}, ${answer.provider})`,
    };
  }
  const answer = await muster.getSearch({ query: { q, limit: 50 } });
  return {
    hits: answer.results.map((r) => ({ path: r.path, excerpt: r.excerpt, detail: `${r.title} · ${r.category}`, score: r.score })),
    summary: `${answer.count} of ${answer.total} files${answer.stats.indexing ? " (the index is being refreshed)" : ""}`,
  };
}

function SearchForm({ q, mode }: { q: string; mode: Mode }) {
  const submit = (event: Event) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget as HTMLFormElement);
    const params = new URLSearchParams({ q: String(fields.get("q") ?? "").trim() });
    if (fields.get("mode") === "semantic") params.set("mode", "semantic");
    navigate(`${pageHref("search")}?${params}`);
  };
  return html`<form class="form search-form" role="search" aria-label="Search the workspace" onSubmit=${submit}>
    <div class="field">
      <label for="search-q">Search for</label>
      <input id="search-q" name="q" type="search" value=${q} required minlength="2" />
    </div>
    <fieldset class="mode-switch">
      <legend>Mode</legend>
      <label><input type="radio" name="mode" value="fulltext" checked=${mode === "fulltext"} /> Full text (words in files)</label>
      <label><input type="radio" name="mode" value="semantic" checked=${mode === "semantic"} /> Semantic (meaning, indexed memory)</label>
    </fieldset>
    <div class="form-actions"><button type="submit" class="button primary">Search</button></div>
  </form>`;
}

function SearchPage() {
  useStylesheet("/dashboard/plugins/search/search.css");
  const route = useRoute();
  const q = route.query.get("q") ?? "";
  const mode: Mode = route.query.get("mode") === "semantic" ? "semantic" : "fulltext";
  const results = useResource(() => find(q, mode), { deps: [q, mode] });
  const found = results.data;
  return html`<div class="page search" data-page="search">
    <${PageHeader} title="Search" description="Find files in the workspace by their words, or memory by meaning." />
    <div class="stack">
      <${Section} title="Query"><${SearchForm} key=${`${q}|${mode}`} q=${q} mode=${mode} /><//>
      ${q
        ? html`<${Section} title="Results">
            <${ErrorNote} error=${results.error} />
            ${results.loading && !found ? html`<p class="meta" aria-live="polite">Searching…</p>` : null}
            ${found ? html`<p class="meta" role="status">${found.summary}</p>` : null}
            ${found && found.hits.length === 0 ? html`<${Empty}>Nothing matches “${q}”.<//>` : null}
            <ol class="search-results">
              ${found?.hits.map(
                (hit, index) => html`<li key=${`${hit.path}-${index}`}>
                  <p class="hit-path"><code>${hit.path}</code> <span class="meta">${hit.detail}</span> <${Badge} tone="info" title="Relevance">${hit.score.toFixed(2)}<//></p>
                  <pre class="excerpt">${hit.excerpt}</pre>
                </li>`,
              )}
            </ol>
          <//>`
        : null}
    </div>
  </div>`;
}

export default mountComponent(SearchPage);
