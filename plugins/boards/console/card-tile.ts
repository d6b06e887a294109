// A card on the board: draggable, its title a link to its page, and the buttons that move it
// one column left or right (the keyboard's way to move it).
import { Badge, html, pageHref } from "@muster/console";
import { CARD_DRAG_TYPE, type ColumnProps } from "./board-column.ts";
import type { Board, Card, Column } from "./board-types.ts";

const PRIORITY_TONE = { low: "muted", medium: "info", high: "warn", urgent: "bad" } as const;

export function CardTile({ card, board, left, right, onMove }: { card: Card; board: Board; left?: Column; right?: Column; onMove: ColumnProps["onMove"] }) {
  const start = (event: DragEvent) => {
    event.dataTransfer?.setData(CARD_DRAG_TYPE, card.id);
    event.dataTransfer?.setData("text/plain", card.title);
    if (event.dataTransfer) event.dataTransfer.effectAllowed = "move";
  };
  const moveButton = (to: Column | undefined, control: "left" | "right") =>
    to
      ? html`<button type="button" class=${`button plain move move-${control}`} onClick=${() => onMove(card, to, undefined, { cardId: card.id, control })}>
          ${control === "left" ? "← Move left" : "Move right →"}<span class="visually-hidden"> to ${to.name}: ${card.title}</span>
        </button>`
      : null;
  return html`<article class="kanban-card" draggable="true" data-card-id=${card.id} onDragStart=${start}>
    <h3 class="card-title"><a href=${pageHref("boards", board.id, card.id)}>${card.title}</a></h3>
    <p class="card-meta">
      <${Badge} tone=${PRIORITY_TONE[card.priority]}>${card.priority}<//>
      ${card.assignee ? html`<span class="meta">@${card.assignee}</span>` : null}
      ${card.checklist.length ? html`<span class="meta">${card.checklist.filter((item) => item.checked).length}/${card.checklist.length} done</span>` : null}
      ${card.labels.map((label) => html`<${Badge} key=${label}>${label}<//>`)}
    </p>
    <div class="card-moves">${moveButton(left, "left")}${moveButton(right, "right")}</div>
  </article>`;
}
