// The Boards page: the list of boards (and a new one from a template) at /console/boards, one
// board at /console/boards/<boardId>, and a card's detail over its board at
// /console/boards/<boardId>/<cardId>. docs/console/work.md.
import { html, mountComponent, useRoute, useStylesheet } from "@muster/console";
import { BoardList } from "./board-list.ts";
import { BoardScreen } from "./board-screen.ts";

useStylesheet("/dashboard/plugins/boards/boards.css");

function BoardsPage() {
  const { rest } = useRoute();
  const [boardId, cardId] = rest;
  if (!boardId) return html`<${BoardList} />`;
  return html`<${BoardScreen} key=${boardId} boardId=${boardId} cardId=${cardId} />`;
}

export default mountComponent(BoardsPage);
