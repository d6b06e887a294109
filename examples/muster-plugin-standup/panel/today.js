// The "Stand-up" console panel: plain browser JavaScript, shipped as is (no build step).
// The dashboard serves this file at /dashboard/plugins/standup/today.js and calls its default
// export with the element of the panel's region; it calls the returned refresh() again on
// every standup.note.posted event of the live stream.
export default function mountStandupPanel(element) {
  const doc = element.ownerDocument;
  const el = (tag, text, className) => {
    const node = doc.createElement(tag);
    if (text !== undefined) node.textContent = text; // textContent: notes are agents' text, never HTML
    if (className) node.className = className;
    return node;
  };

  async function refresh() {
    try {
      const res = await fetch("/api/standup", { credentials: "same-origin" });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error?.message ?? `GET /api/standup answered ${res.status}`);
      if (body.notes.length === 0) {
        element.replaceChildren(el("p", `No stand-up notes yet today (${body.day}).`, "empty"));
        return;
      }
      const list = el("ul", undefined, "standup-notes");
      for (const note of body.notes) {
        const item = el("li");
        item.append(el("strong", note.agent), el("p", `Yesterday: ${note.yesterday}`), el("p", `Today: ${note.today}`));
        if (note.blockers) item.append(el("p", `Blocked: ${note.blockers}`, "error"));
        list.append(item);
      }
      element.replaceChildren(list);
    } catch (caught) {
      element.replaceChildren(el("p", String(caught.message ?? caught), "error"));
    }
  }

  refresh();
  return { refresh };
}
