// The skill import form: a name, a category and either the skill's text pasted in or an
// http(s) URL the server fetches. A URL import is a read the server makes at once under its
// SSRF guard (docs/workspace-readers.md), not an external action behind the approval gate;
// should the answer ever carry an approval, it is shown with its link.
import { html, muster, pageHref, useState, ApprovalLink, Field, Form } from "@muster/console";
import type { Muster } from "@muster/console";

type Imported = Awaited<ReturnType<Muster["postSkillsImport"]>>;
type Source = "content" | "url";

const text = (fields: FormData, name: string) => String(fields.get(name) ?? "").trim();

export function SkillImportForm({ categories, onImported }: { categories: readonly string[]; onImported: () => void }) {
  const [source, setSource] = useState<Source>("content");
  const [imported, setImported] = useState<Imported | undefined>(undefined);
  const submit = async (fields: FormData) => {
    setImported(undefined);
    const answer = await muster.postSkillsImport({
      body: {
        name: text(fields, "name"),
        category: text(fields, "category"),
        ...(source === "url" ? { url: text(fields, "url") } : { content: String(fields.get("content") ?? "") }),
        overwrite: fields.get("overwrite") === "on",
      },
    });
    setImported(answer);
    onImported();
  };
  const approval = (imported as { approval?: Record<string, unknown> } | undefined)?.approval;
  // The source choice sits outside the form: a reset after an import must not clear it.
  return html`<div class="stack">
    <fieldset class="skill-source">
      <legend>Source</legend>
      <label><input type="radio" name="source" value="content" checked=${source === "content"} onChange=${() => setSource("content")} /> Paste the text</label>
      <label><input type="radio" name="source" value="url" checked=${source === "url"} onChange=${() => setSource("url")} /> Fetch from a URL</label>
    </fieldset>
    <${Form} label="Import a skill" submitLabel="Import skill" onSubmit=${submit}>
      <div class="form inline">
        <${Field} label="Name" name="name" required=${true} hint="Letters, digits, spaces, _ or -; it becomes the file name (Code Review → code-review.md)." />
        <${Field} label="Category" name="category" required=${true} placeholder=${categories[0] ?? "engineering"}
          hint=${`Lower-case letters, digits, _ or -${categories.length ? `; existing: ${categories.join(", ")}` : ""}.`} />
      </div>
      ${source === "content"
        ? html`<${Field} as="textarea" label="Skill text" name="content" rows=${8} required=${true} hint="Markdown. Text without a heading gets one (# Skill — name) with its source and date." />`
        : html`<${Field} type="url" label="Skill URL" name="url" required=${true} placeholder="https://example.com/skills/code-review.md"
            hint="The server fetches it now (public http and https addresses only; loopback and private networks are refused with SKILLS_URL_BLOCKED).." />`}
      <label class="checkbox"><input type="checkbox" name="overwrite" /> Replace a skill of the same name</label>
    <//>
    ${imported
      ? html`<p class="notice" role="status">Imported <a href=${pageHref("documents", imported.skill.path)}>${imported.skill.path}</a> (${imported.skill.size} bytes).</p>`
      : null}
    <${ApprovalLink} approval=${approval} what="The import was not run yet." />
  </div>`;
}
