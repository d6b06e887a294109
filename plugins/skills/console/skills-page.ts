// The Skills page (`/console/skills`): the workspace's skill categories (skills/<category>/)
// with their skills, each linked to its text on the Documents page, and the import form.
// Live: reloads when a skill is imported (the host's watcher does not watch skills/).
import { html, muster, mountComponent, pageHref, useResource, useStylesheet, DataTable, ErrorNote, PageHeader, Section } from "@muster/console";
import type { Muster } from "@muster/console";
import { SkillImportForm } from "./skill-import-form.ts";

type Category = Awaited<ReturnType<Muster["getSkillsImport"]>>["categories"][number];

const skillPath = (category: string, skill: string) => `skills/${category}/${skill}.md`;

const columns = [
  { label: "Category", render: (c: Category) => html`<strong>${c.category}</strong> <span class="meta">(${c.skills.length})</span>` },
  {
    label: "Skills",
    render: (c: Category) =>
      html`<ul class="skill-names">${c.skills.map(
        (skill) => html`<li key=${skill}><a href=${pageHref("documents", skillPath(c.category, skill))} aria-label=${`Read skill ${skill} (${c.category})`}>${skill}</a></li>`,
      )}</ul>`,
  },
];

function SkillsPage() {
  useStylesheet("/dashboard/plugins/skills/skills.css");
  const listing = useResource(() => muster.getSkillsImport(), { events: ["skills.skill.imported"] });
  const categories = listing.data?.categories;
  const total = categories?.reduce((sum, c) => sum + c.skills.length, 0) ?? 0;
  return html`<div class="page skills" data-page="skills">
    <${PageHeader} title="Skills" description="What the crew knows how to do: skills/<category>/<name>.md in the workspace." />
    <div class="stack">
      <${Section} title="Categories">
        <${ErrorNote} error=${listing.error} />
        ${categories?.length ? html`<p class="meta" role="status">${categories.length} categories, ${total} skills.</p>` : null}
        <${DataTable} caption="Skill categories" captionHidden=${true} rows=${categories} rowKey=${(c: Category) => c.category} columns=${columns} pageSize=${50}
          empty="No skills yet: import one below, or write skills/<category>/<name>.md in the workspace." />
      <//>
      <${Section} title="Import a skill">
        <${SkillImportForm} categories=${categories?.map((c) => c.category) ?? []} onImported=${() => void listing.reload()} />
      <//>
    </div>
  </div>`;
}

export default mountComponent(SkillsPage);
