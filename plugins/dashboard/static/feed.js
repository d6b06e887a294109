// The live activity feed: recent activities from GET /api/activities, then every frame of
// the SSE stream (workspace file changes and public bus events) as it arrives.
import { api } from "./api.js";
import { h, showError, errorText, time } from "./dom.js";

const MAX_ENTRIES = 200;

/** `describe(name)`: the description of the event's family (GET /api/sse/families), shown as the entry's tooltip. */
export function createActivityFeed({ describe = () => undefined } = {}) {
  const list = document.getElementById("feed-list");
  const error = document.getElementById("feed-error");

  async function loadRecent() {
    try {
      const activities = await api.get("/api/activities?limit=30");
      showError(error, null);
      list.replaceChildren(...activities.map((activity) => activityEntry(activity)));
    } catch (caught) {
      showError(error, `Could not load recent activity. ${errorText(caught)}`);
    }
  }

  function add(entry) {
    list.prepend(entry);
    while (list.children.length > MAX_ENTRIES) list.lastElementChild.remove();
  }

  /** One decoded SSE message (`file_change` or `event`; connected and ping frames are not shown). */
  function onStreamMessage(message) {
    if (message.type === "file_change") add(fileEntry(message.event));
    else if (message.type === "event") add(message.name === "activities.activity.created" ? activityEntry(message.payload, true) : busEntry(message, describe(message.name)));
  }

  return { loadRecent, onStreamMessage };
}

function entry(kind, when, who, ...text) {
  return h("li", { class: `entry ${kind}` }, h("span", { class: "when" }, time(when)), h("span", { class: "who" }, who), h("span", { class: "what" }, ...text));
}

function activityEntry(activity, live = false) {
  const item = entry("activity", activity.timestamp, activity.agentId, h("strong", {}, activity.action), activity.target ? [" ", h("code", {}, activity.target)] : null, activity.details ? h("span", { class: "details" }, activity.details) : null);
  if (live) item.classList.add("new");
  return item;
}

function fileEntry(change) {
  const item = entry("file", change.timestamp, "workspace", `${change.type} `, h("code", { class: "path" }, change.path));
  item.classList.add("new");
  return item;
}

const EVENT_LABELS = { created: "created", updated: "updated", deleted: "deleted", approved: "approved", rejected: "rejected", executed: "ran", execution_failed: "failed to run" };

function busEntry(message, description) {
  const [plugin, entity, verb] = message.name.split(".");
  const payload = message.payload ?? {};
  const subject = payload.title ?? payload.name ?? payload.id ?? "";
  const item = entry("event", message.timestamp, plugin, `${entity} ${EVENT_LABELS[verb] ?? verb} `, subject ? h("span", { class: "subject" }, String(subject)) : null, payload.status && entity === "task" ? h("span", { class: "details" }, `status ${payload.status}`) : null);
  item.classList.add("new");
  if (description) item.title = description;
  return item;
}
