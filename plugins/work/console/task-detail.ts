// One task (/console/tasks/<id>): every field editable, its review approvals (task.review)
// linked to the inbox, its dispatches when the dispatch plugin is there, claim and delete.
// Follows the task's events and the approvals', so a decision or a dispatch shows up.
import { ActionButton, Badge, DataTable, ErrorNote, Field, Form, PageHeader, Section, Time, html, muster, navigate, pageHref, useResource } from "@muster/console";
import { PRIORITIES, STATUS_TONE, TASK_STATUSES, type Task, type TaskPatch } from "./work-types.ts";

type Approval = Awaited<ReturnType<typeof muster.getApprovals>>["pending"][number];
type Dispatch = Awaited<ReturnType<typeof muster.getDispatch>>["dispatches"][number];

export function TaskDetail({ id }: { id: string }) {
  const task = useResource(() => muster.getTasksById({ id }), { deps: [id], events: ["work.task.*"] });
  const reviews = useResource(async () => {
    const { pending, history } = await muster.getApprovals({ query: { pendingLimit: 500, limit: 500 } });
    return [...pending, ...history].filter((approval) => approval.taskId === id && approval.command === "task.review");
  }, { deps: [id], events: ["approvals.*", "work.task.*"] });
  // The dispatch plugin is optional: without it this section says so instead of failing.
  const dispatches = useResource(() => muster.getDispatch({ query: { limit: 500 } }).then((answer) => answer.dispatches.filter((d) => d.taskId === id)), { deps: [id], events: ["dispatch.*"] });
  const back = html`<a class="button plain" href=${pageHref("tasks")}>All tasks</a>`;
  if (!task.data) return html`<${PageHeader} title="Task" actions=${back} />${task.error ? html`<${ErrorNote} error=${task.error} />` : html`<p class="meta">Loading the task…</p>`}`;
  const current = task.data;
  return html`<${PageHeader} title=${current.title}
      description=${html`<${Badge} tone=${STATUS_TONE[current.status]}>${current.status.replace("_", " ")}<//> ${current.assignedTo ? `assigned to ${current.assignedTo}` : "unassigned"} · updated <${Time} when=${current.updatedAt} />`}
      actions=${html`${back}<a class="button plain" href=${`${pageHref("dispatch")}?task=${encodeURIComponent(current.id)}`}>Dispatch this task</a>`} />
    <div class="grid-2">
      <${TaskForm} task=${current} onSaved=${task.reload} />
      <div class="stack">
        <${Section} title="Review">
          <${ErrorNote} error=${reviews.error} />
          <${DataTable} caption="Review approvals" captionHidden=${true} rows=${reviews.data} rowKey=${(a: Approval) => a.id}
            empty="No review yet: a task entering review gets a task.review approval."
            columns=${[
              { label: "Approval", render: (a: Approval) => html`<a href=${pageHref("approvals", a.id)}>${a.title}</a>` },
              { label: "State", render: (a: Approval) => html`<${Badge} tone=${a.status === "approved" ? "ok" : a.status === "rejected" ? "bad" : "warn"}>${a.status}<//>` },
              { label: "Asked", render: (a: Approval) => html`<${Time} when=${a.createdAt} />` },
            ]} />
        <//>
        <${Section} title="Dispatches">
          ${dispatches.error
            ? html`<p class="meta">Dispatches are not available here.</p>`
            : html`<${DataTable} caption="Dispatches" captionHidden=${true} rows=${dispatches.data} rowKey=${(d: Dispatch) => d.id} empty="Not dispatched yet."
                columns=${[
                  { label: "Agent", key: "agentId" },
                  { label: "State", render: (d: Dispatch) => html`<${Badge} tone=${d.status === "completed" ? "ok" : d.status === "running" ? "info" : "bad"}>${d.status}<//>` },
                  { label: "Started", render: (d: Dispatch) => html`<${Time} when=${d.createdAt} />` },
                ]} />`}
        <//>
        <${Section} title="Claim or delete">
          <${Form} label="Claim the task for an agent" submitLabel="Claim task" class="inline" onSubmit=${async (fields: FormData) => {
            await muster.postTasksClaimById({ id: current.id, body: { agentId: String(fields.get("agentId") ?? "") } });
            await task.reload();
          }}>
            <${Field} label="Agent" name="agentId" required=${true} hint="Only a backlog task can be claimed; it moves to in progress." />
          <//>
          <div class="form-actions">
            <${ActionButton} label="Delete task" tone="danger" confirm="Delete this task permanently?" onAction=${async () => {
              await muster.deleteTasksById({ id: current.id });
              navigate(pageHref("tasks"));
            }} />
          </div>
        <//>
      </div>
    </div>`;
}

function TaskForm({ task, onSaved }: { task: Task; onSaved: () => Promise<void> }) {
  const projects = useResource(() => muster.getProjects());
  const sprints = useResource(() => muster.getSprints());
  const stories = useResource(() => muster.getStories());
  const text = (fields: FormData, name: string) => String(fields.get(name) ?? "").trim() || null;
  const hours = (fields: FormData, name: string) => {
    const value = text(fields, name);
    return value === null ? null : Number(value);
  };
  const save = async (fields: FormData) => {
    const body: TaskPatch = {
      title: String(fields.get("title") ?? ""),
      description: text(fields, "description"),
      status: String(fields.get("status")) as Task["status"],
      priority: String(fields.get("priority")) as Task["priority"],
      assignedTo: text(fields, "assignedTo"),
      projectId: text(fields, "projectId"),
      sprintId: text(fields, "sprintId"),
      storyId: text(fields, "storyId"),
      estimatedHours: hours(fields, "estimatedHours"),
      actualHours: hours(fields, "actualHours"),
      tags: text(fields, "tags"),
      notes: text(fields, "notes"),
    };
    await muster.patchTasksById({ id: task.id, body });
    await onSaved();
  };
  const none = { value: "", label: "None" };
  return html`<${Section} title="Details">
    <${Form} key=${task.updatedAt} label="Edit the task" submitLabel="Save task" resetOnSuccess=${false} onSubmit=${save}>
      <${Field} label="Title" name="title" value=${task.title} required=${true} />
      <${Field} label="Description" name="description" as="textarea" rows=${3} value=${task.description ?? ""} />
      <div class="form inline">
        <${Field} label="Status" name="status" as="select" value=${task.status} options=${TASK_STATUSES} hint="Done only through the review approval." />
        <${Field} label="Priority" name="priority" as="select" value=${task.priority} options=${PRIORITIES} />
        <${Field} label="Assignee" name="assignedTo" value=${task.assignedTo ?? ""} />
      </div>
      <div class="form inline">
        <${Field} label="Project" name="projectId" as="select" value=${task.projectId ?? ""} options=${[none, ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))]} />
        <${Field} label="Sprint" name="sprintId" as="select" value=${task.sprintId ?? ""} options=${[none, ...(sprints.data ?? []).map((s) => ({ value: s.id, label: s.name }))]} />
        <${Field} label="Story" name="storyId" as="select" value=${task.storyId ?? ""} options=${[none, ...(stories.data ?? []).map((s) => ({ value: s.id, label: s.title }))]} />
      </div>
      <div class="form inline">
        <${Field} label="Estimated hours" name="estimatedHours" type="number" min=${0} value=${task.estimatedHours ?? ""} />
        <${Field} label="Actual hours" name="actualHours" type="number" min=${0} value=${task.actualHours ?? ""} />
        <${Field} label="Tags" name="tags" value=${task.tags ?? ""} />
      </div>
      <${Field} label="Notes" name="notes" as="textarea" rows=${4} value=${task.notes ?? ""} />
    <//>
  <//>`;
}
