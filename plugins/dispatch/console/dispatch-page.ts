// The Dispatch page (/console/dispatch, ?task=<id> preselects a task): send a task to its
// assignee through the gateway, then follow it: running, the agent's reply, the task in review
// and its task.review approval (linked to /console/approvals/<id>), approved or rejected.
// docs/console/work.md.
import { Badge, DataTable, ErrorNote, Field, Form, PageHeader, Section, Time, html, mountComponent, muster, pageHref, useResource, useRoute, useState, useStylesheet } from "@muster/console";

useStylesheet("/dashboard/plugins/dispatch/dispatch.css");

type Dispatch = Awaited<ReturnType<typeof muster.getDispatch>>["dispatches"][number];
type Approval = Awaited<ReturnType<typeof muster.getApprovals>>["pending"][number];
type Task = Awaited<ReturnType<typeof muster.getTasksById>>;

/** Tasks offered per status in the picker (the API pages; the ?task= address reaches any other). */
const PICKER_LIMIT = 200;
const DISPATCHABLE = ["backlog", "blocked", "in_progress"] as const;
const STATE_TONE = { running: "info", completed: "ok", failed: "bad", interrupted: "warn" } as const;

function DispatchPage() {
  const { query } = useRoute();
  const wanted = query.get("task") ?? "";
  const dispatches = useResource(() => muster.getDispatch({ query: { limit: 200 } }).then((answer) => answer.dispatches), { events: ["dispatch.*"] });
  const reviews = useResource(async () => {
    const { pending, history } = await muster.getApprovals({ query: { pendingLimit: 500, limit: 500 } });
    // Newest first: the first one of a task is its latest review.
    const byTask = new Map<string, Approval>();
    for (const approval of [...pending, ...history].sort((a, b) => b.createdAt.localeCompare(a.createdAt))) {
      if (approval.command === "task.review" && !byTask.has(approval.taskId)) byTask.set(approval.taskId, approval);
    }
    return byTask;
  }, { events: ["approvals.*", "work.task.*"] });
  const tasks = useResource(async () => {
    const lists = await Promise.all(DISPATCHABLE.map((status) => muster.getTasks({ query: { status, limit: PICKER_LIMIT } })));
    const offered = lists.flat().filter((task) => task.assignedTo);
    if (wanted && !offered.some((task) => task.id === wanted)) offered.unshift(await muster.getTasksById({ id: wanted }));
    return offered;
  }, { deps: [wanted], events: ["work.task.*"] });
  const [sent, setSent] = useState<Dispatch | undefined>(undefined);

  const send = async (fields: FormData) => {
    const { dispatch } = await muster.postDispatch({ body: { taskId: String(fields.get("taskId") ?? "") } });
    setSent(dispatch);
    await dispatches.reload();
  };
  const review = (dispatch: Dispatch) => {
    const approval = reviews.data?.get(dispatch.taskId);
    if (!approval || approval.createdAt < dispatch.createdAt) return html`<span class="meta">${dispatch.status === "completed" ? "Waiting for review…" : "—"}</span>`;
    return html`<a href=${pageHref("approvals", approval.id)}>Review ${approval.status === "pending" ? "waiting for you" : approval.status}</a>
      <${Badge} tone=${approval.status === "approved" ? "ok" : approval.status === "rejected" ? "bad" : "warn"}>${approval.status}<//>`;
  };
  const taskTitle = (id: string) => tasks.data?.find((task) => task.id === id)?.title;
  const options = (tasks.data ?? []).map((task: Task) => ({ value: task.id, label: `${task.title} (${task.assignedTo ?? "unassigned"}, ${task.status.replace("_", " ")})` }));
  return html`<${PageHeader} title="Dispatch" description="Send a task to the agent it is assigned to; its reply puts the task in review, and a human approves it." />
    <div class="stack">
      <${Section} title="Dispatch a task">
        ${!tasks.data
          ? // No form before the tasks are in: a click then sent an empty task id (a validation error, not the task's own refusal).
            tasks.error ? null : html`<p class="meta" aria-live="polite">Loading the tasks…</p>`
          : options.length === 0
          ? html`<p class="empty">No task to dispatch: a task needs an assignee and must not be in review or done.</p>`
          : html`<${Form} label="Dispatch a task" submitLabel="Dispatch task" class="inline" onSubmit=${send}>
              <${Field} label="Task" name="taskId" as="select" value=${wanted || options[0]?.value} options=${options} hint="Tasks with an assignee, not in review or done." />
            <//>`}
        <${ErrorNote} error=${tasks.error} />
        ${sent ? html`<p class="notice" role="status">Dispatched “${taskTitle(sent.taskId) ?? sent.taskId}” to ${sent.agentId}.</p>` : null}
      <//>
      <${Section} title="Dispatches">
        <${ErrorNote} error=${dispatches.error ?? reviews.error} />
        <${DataTable} caption="Dispatches" captionHidden=${true} rows=${dispatches.data} rowKey=${(d: Dispatch) => d.id} empty="Nothing dispatched yet."
          columns=${[
            { label: "Task", render: (d: Dispatch) => html`<a href=${pageHref("tasks", d.taskId)}>${taskTitle(d.taskId) ?? d.taskId}</a>` },
            { label: "Agent", key: "agentId" },
            { label: "State", render: (d: Dispatch) => html`<span data-dispatch-state=${d.status}><${Badge} tone=${STATE_TONE[d.status]}>${d.status}<//></span>` },
            { label: "Review", render: review },
            { label: "Reply", class: "reply", render: (d: Dispatch) => d.error ? html`<span class="error-text">${d.error}</span>` : d.output ? html`<span class="reply-text">${d.output}</span>` : html`<span class="meta">—</span>` },
            { label: "Started", render: (d: Dispatch) => html`<${Time} when=${d.createdAt} />` },
          ]} />
      <//>
    </div>`;
}

export default mountComponent(DispatchPage);
