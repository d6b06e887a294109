// Sprints, epics, stories and projects (/console/planning/<kind>): one table per kind with a
// status filter, inline edits of the name/title and status (PATCH with the id in the body),
// and a form that creates one. docs/console/work.md.
import { DataTable, ErrorNote, Field, Form, PageHeader, Section, Time, html, mountComponent, muster, pageHref, useResource, useRoute, useState, useStylesheet, type Column } from "@muster/console";
import { InlineSelect, InlineText } from "./inline-edit.ts";
import { PLANNING_KINDS, type PlanningKind, type PlanningRecord } from "./planning-kinds.ts";

useStylesheet("/dashboard/plugins/work/work.css");

function PlanningPage() {
  const { rest } = useRoute();
  const kind = PLANNING_KINDS.find((candidate) => candidate.id === rest[0]) ?? PLANNING_KINDS[0]!;
  return html`<${PageHeader} title="Sprints, epics & projects" description="The plan the tasks belong to." />
    <nav aria-label="Kinds of plan"><ul class="kind-tabs">
      ${PLANNING_KINDS.map((candidate) => html`<li key=${candidate.id}><a class="button plain" href=${pageHref("planning", candidate.id)} aria-current=${candidate.id === kind.id ? "page" : undefined}>${candidate.title}</a></li>`)}
    </ul></nav>
    <${PlanningTable} key=${kind.id} kind=${kind} />`;
}

function PlanningTable({ kind }: { kind: PlanningKind }) {
  const records = useResource(() => kind.list(), { events: [`work.${kind.event}.*`] });
  const [status, setStatus] = useState("");
  const save = async (record: PlanningRecord, changes: Record<string, unknown>) => {
    await kind.update(record.id, changes);
    await records.reload();
  };
  const nameOf = (record: PlanningRecord) => String(record[kind.nameField] ?? "");
  const columns: Column<PlanningRecord>[] = [
    { label: kind.nameField === "name" ? "Name" : "Title", render: (record) => html`<${InlineText} label=${kind.nameField === "name" ? "Name" : "Title"} what=${nameOf(record)} value=${nameOf(record)} onSave=${(value: string) => save(record, { [kind.nameField]: value })} />` },
    { label: "Status", render: (record) => html`<${InlineSelect} label="Status" what=${nameOf(record)} value=${record.status} options=${kind.statuses} onSave=${(value: string) => save(record, { status: value })} />` },
    ...kind.extra.map((field) => ({ label: field.label, render: (record: PlanningRecord) => String(record[field.key] ?? "—") })),
    { label: "Updated", render: (record: PlanningRecord) => html`<${Time} when=${record.updatedAt} />` },
  ];
  const rows = records.data?.filter((record) => !status || record.status === status);
  return html`<div class="stack">
    <${Section} title=${`New ${kind.singular}`}>
      <${Form} label=${`New ${kind.singular}`} submitLabel=${`Create ${kind.singular}`} class="inline" onSubmit=${async (fields: FormData) => {
        await kind.create(String(fields.get("name") ?? ""), String(fields.get("status") ?? kind.statuses[0]));
        await records.reload();
      }}>
        <${Field} label=${kind.nameField === "name" ? "Name" : "Title"} name="name" required=${true} />
        <${Field} label="Status" name="status" as="select" options=${kind.statuses} />
      <//>
    <//>
    <${Section} title=${kind.title}>
      <div class="toolbar">
        <${Field} label="Status filter" name="status-filter" as="select" value=${status} options=${[{ value: "", label: "Any status" }, ...kind.statuses]} onInput=${setStatus} />
      </div>
      <${ErrorNote} error=${records.error} />
      <${DataTable} caption=${kind.title} captionHidden=${true} columns=${columns} rows=${rows} rowKey=${(record: PlanningRecord) => record.id} empty=${`No ${kind.title.toLowerCase()} here.`} />
    <//>
  </div>`;
}

export default mountComponent(PlanningPage);
