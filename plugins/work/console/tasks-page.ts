// The Tasks page: /console/tasks is the table of tasks (filters in the address, inline edits),
// /console/tasks/<id> one task. docs/console/work.md.
import { html, mountComponent, useRoute, useStylesheet } from "@muster/console";
import { TaskList } from "./task-list.ts";
import { TaskDetail } from "./task-detail.ts";

useStylesheet("/dashboard/plugins/work/work.css");

function TasksPage() {
  const { rest } = useRoute();
  return rest[0] ? html`<${TaskDetail} key=${rest[0]} id=${rest[0]} />` : html`<${TaskList} />`;
}

export default mountComponent(TasksPage);
