// The task board: GET /api/tasks grouped by status, one column per status.
import { api } from "./api.js";
import { h, showError, errorText, time } from "./dom.js";

const COLUMNS = [
  ["backlog", "Backlog"],
  ["in_progress", "In progress"],
  ["review", "Review"],
  ["blocked", "Blocked"],
  ["done", "Done"],
];
const CARDS_PER_COLUMN = 30;

export function createTaskBoard() {
  const columns = document.getElementById("board-columns");
  const count = document.getElementById("board-count");
  const error = document.getElementById("board-error");

  async function refresh() {
    let tasks;
    try {
      tasks = await api.get("/api/tasks");
      showError(error, null);
    } catch (caught) {
      showError(error, `Could not load tasks. ${errorText(caught)}`);
      return;
    }
    count.textContent = `${tasks.length} task${tasks.length === 1 ? "" : "s"}`;
    columns.replaceChildren(
      ...COLUMNS.map(([status, label]) => {
        const inColumn = tasks.filter((task) => task.status === status);
        const more = inColumn.length - CARDS_PER_COLUMN;
        return h(
          "section",
          { class: `column ${status}`, "data-status": status, "aria-label": `${label}: ${inColumn.length}` },
          h("h3", {}, label, h("span", { class: "count" }, String(inColumn.length))),
          h("ul", {}, inColumn.slice(0, CARDS_PER_COLUMN).map(taskCard)),
          more > 0 ? h("p", { class: "hint" }, `and ${more} more`) : null,
        );
      }),
    );
  }

  return { refresh };
}

function taskCard(task) {
  return h(
    "li",
    { class: `task priority-${task.priority}`, "data-id": task.id },
    h("span", { class: "task-title" }, task.title),
    h("span", { class: "meta" }, task.assignedTo ? h("span", { class: "who" }, task.assignedTo) : h("span", { class: "who none" }, "unassigned"), " · ", task.priority, " · ", time(task.updatedAt)),
  );
}
