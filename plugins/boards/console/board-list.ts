// The boards, most recently updated first, and the form that starts a board from a template.
import { DataTable, Field, Form, PageHeader, Section, ErrorNote, Time, html, muster, navigate, pageHref, useResource } from "@muster/console";
import type { Board } from "./board-types.ts";

export function BoardList() {
  const boards = useResource(() => muster.getBoards().then((answer) => answer.boards), { events: ["boards.board.*"] });
  const templates = useResource(() => muster.getBoardsTemplates().then((answer) => answer.templates));
  const create = async (fields: FormData) => {
    const { board } = await muster.postBoards({ body: { name: String(fields.get("name") ?? ""), template: String(fields.get("template") ?? "kanban") } });
    navigate(pageHref("boards", board.id));
  };
  const columns = [
    { label: "Board", render: (board: Board) => html`<a href=${pageHref("boards", board.id)}>${board.name}</a>` },
    { label: "Type", key: "type" as const },
    { label: "Columns", render: (board: Board) => board.columns.map((column) => column.name).join(" → ") },
    { label: "Updated", render: (board: Board) => html`<${Time} when=${board.updatedAt} />` },
  ];
  return html`<${PageHeader} title="Boards" description="Kanban boards of cards; open one to move its cards." />
    <div class="stack">
      <${Section} title="New board">
        <${Form} label="New board" submitLabel="Create board" class="inline" onSubmit=${create}>
          <${Field} label="Name" name="name" required=${true} />
          <${Field} label="Template" name="template" as="select" hint=${templates.data?.find((t) => t.id === "kanban")?.description}
            options=${(templates.data ?? []).map((template) => ({ value: template.id, label: `${template.name}: ${template.columns.map((c) => c.name).join(", ")}` }))} />
        <//>
        <${ErrorNote} error=${templates.error} />
      <//>
      <${Section} title="All boards">
        <${ErrorNote} error=${boards.error} />
        <${DataTable} caption="Boards" captionHidden=${true} columns=${columns} rows=${boards.data} rowKey=${(board: Board) => board.id} empty="No boards yet: create one above." />
      <//>
    </div>`;
}
