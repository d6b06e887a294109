// The table of tasks: filters by status, priority, assignee, project and sprint (kept in the
// address, so a reload or a link keeps them), inline edits of title, status, priority and
// assignee (PATCH /api/tasks/{id}), a new-task form, and tasks loaded a server page at a time
// (10,000 tasks are never drawn at once).
import { DataTable, ErrorNote, Field, Form, PageHeader, Section, Time, html, muster, navigate, pageHref, useResource, useRoute, useState, type Column } from "@muster/console";
import { loadTasks } from "./task-pages.ts";
import { InlineSelect, InlineText } from "./inline-edit.ts";
import { PRIORITIES, TASK_STATUSES, type Task, type TaskQuery } from "./work-types.ts";

/** Rows drawn at first and per "Show more": each row is a set of inline-edit controls, and 100 of
 * them were most of the page's first render with 10,000 tasks (bench:console). */
const ROWS_SHOWN = 50;
/** Tasks fetched per "Load more" from the server; DataTable shows them ROWS_SHOWN at a time. */
const SERVER_PAGE = 500;
const FILTERS = ["status", "priority", "assignedTo", "projectId", "sprintId"] as const;

export function TaskList() {
  const route = useRoute();
  const filter: TaskQuery = {};
  for (const name of FILTERS) {
    const value = route.query.get(name);
    if (value) (filter as Record<string, string>)[name] = value;
  }
  const filterKey = JSON.stringify(filter);
  const [count, setCount] = useState(SERVER_PAGE);
  const tasks = useResource(() => loadTasks(filter, count), { deps: [filterKey, count], events: ["work.task.*"] });
  const projects = useResource(() => muster.getProjects());
  const sprints = useResource(() => muster.getSprints());

  const setFilter = (name: string, value: string) => {
    const query = new URLSearchParams(route.query);
    if (value) query.set(name, value);
    else query.delete(name);
    setCount(SERVER_PAGE);
    navigate(`${pageHref("tasks")}${query.size ? `?${query}` : ""}`, { replace: true });
  };
  const patch = async (task: Task, body: Parameters<typeof muster.patchTasksById>[0]["body"]) => {
    await muster.patchTasksById({ id: task.id, body });
    await tasks.reload();
  };
  const create = async (fields: FormData) => {
    const assignedTo = String(fields.get("assignedTo") ?? "").trim();
    await muster.postTasks({ body: { title: String(fields.get("title") ?? ""), priority: String(fields.get("priority")) as Task["priority"], ...(assignedTo ? { assignedTo } : {}) } });
    await tasks.reload();
  };

  const columns: Column<Task>[] = [
    { label: "Task", class: "task-cell", render: (task) => html`<${InlineText} label="Title" value=${task.title} what=${task.title} href=${pageHref("tasks", task.id)} onSave=${(title: string) => patch(task, { title })} />` },
    { label: "Status", render: (task) => html`<${InlineSelect} label="Status" what=${task.title} value=${task.status} options=${TASK_STATUSES} onSave=${(status: string) => patch(task, { status: status as Task["status"] })} />` },
    { label: "Priority", render: (task) => html`<${InlineSelect} label="Priority" what=${task.title} value=${task.priority} options=${PRIORITIES} onSave=${(priority: string) => patch(task, { priority: priority as Task["priority"] })} />` },
    { label: "Assignee", render: (task) => html`<${InlineText} label="Assignee" value=${task.assignedTo ?? ""} what=${task.title} onSave=${(assignedTo: string) => patch(task, { assignedTo: assignedTo.trim() || null })} />` },
    { label: "Updated", render: (task) => html`<${Time} when=${task.updatedAt} />` },
  ];
  const option = (value: string, label = value) => ({ value, label });
  return html`<${PageHeader} title="Tasks" description="Every task of the crew; click a title to open it, or change a field in place." />
    <div class="stack">
      <${Section} title="New task">
        <${Form} label="New task" submitLabel="Create task" class="inline" onSubmit=${create}>
          <${Field} label="Title" name="title" required=${true} />
          <${Field} label="Priority" name="priority" as="select" value="medium" options=${PRIORITIES} />
          <${Field} label="Assignee" name="assignedTo" hint="An agent id (optional)" />
        <//>
      <//>
      <${Section} title="Tasks">
        <div class="toolbar" role="group" aria-label="Filter the tasks">
          <${Field} label="Status filter" name="status" as="select" value=${filter.status ?? ""} options=${[option("", "Any status"), ...TASK_STATUSES]} onInput=${(value: string) => setFilter("status", value)} />
          <${Field} label="Priority filter" name="priority" as="select" value=${filter.priority ?? ""} options=${[option("", "Any priority"), ...PRIORITIES]} onInput=${(value: string) => setFilter("priority", value)} />
          <${AssigneeFilter} value=${filter.assignedTo ?? ""} onChange=${(value: string) => setFilter("assignedTo", value)} />
          <${Field} label="Project filter" name="projectId" as="select" value=${filter.projectId ?? ""} options=${[option("", "Any project"), ...(projects.data ?? []).map((p) => option(p.id, p.name))]} onInput=${(value: string) => setFilter("projectId", value)} />
          <${Field} label="Sprint filter" name="sprintId" as="select" value=${filter.sprintId ?? ""} options=${[option("", "Any sprint"), ...(sprints.data ?? []).map((s) => option(s.id, s.name))]} onInput=${(value: string) => setFilter("sprintId", value)} />
        </div>
        <${ErrorNote} error=${tasks.error} />
        <p class="meta" aria-live="polite">${tasks.data ? `${tasks.data.tasks.length}${tasks.data.more ? "+" : ""} tasks` : ""}</p>
        <${DataTable} key=${filterKey} caption="Tasks" captionHidden=${true} columns=${columns} rows=${tasks.data?.tasks} rowKey=${(task: Task) => task.id} pageSize=${ROWS_SHOWN}
          empty=${Object.keys(filter).length ? "No task matches these filters." : "No tasks yet."} />
        ${tasks.data?.more
          ? html`<button type="button" class="button plain more" onClick=${() => setCount(count + SERVER_PAGE)}>Load ${SERVER_PAGE} more tasks from the server</button>`
          : null}
      <//>
    </div>`;
}

/** The assignee filter applies when its field is left or Enter is pressed, not on every key. */
function AssigneeFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return html`<form class="field" role="search" aria-label="Assignee filter" onSubmit=${(event: Event) => {
    event.preventDefault();
    onChange(String(new FormData(event.currentTarget as HTMLFormElement).get("assignedTo") ?? "").trim());
  }}>
    <label for="assignee-filter">Assignee filter</label>
    <input id="assignee-filter" name="assignedTo" value=${value} placeholder="agent id" onChange=${(event: Event) => onChange((event.currentTarget as HTMLInputElement).value.trim())} />
  </form>`;
}
