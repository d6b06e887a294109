// One column of a board: its name and WIP limit, its cards a page at a time ("Show more"), and
// the drop target for dragged cards (dropped on a card: takes its place; on the column: the end).
import { Badge, html, useState } from "@muster/console";
import { CardTile } from "./card-tile.ts";
import type { Board, Card, Column } from "./board-types.ts";

/** Cards drawn per column at first and per "Show more". */
export const CARDS_PER_PAGE = 50;
/** The drag payload's type: a card id. */
export const CARD_DRAG_TYPE = "application/x-muster-card";

export interface ColumnProps {
  board: Board;
  column: Column;
  cards: Card[];
  left?: Column;
  right?: Column;
  onMove: (card: Card, column: Column, position: number | undefined, focus?: { cardId: string; control: "left" | "right" }) => void;
  findCard: (id: string) => Card | undefined;
}

export function BoardColumnView({ board, column, cards, left, right, onMove, findCard }: ColumnProps) {
  const [shown, setShown] = useState(CARDS_PER_PAGE);
  const [over, setOver] = useState(false);
  const full = column.wipLimit !== undefined && cards.length >= column.wipLimit;
  const headingId = `column-${column.id}`;
  const dropped = (event: DragEvent, position?: number) => {
    event.preventDefault();
    event.stopPropagation();
    setOver(false);
    const card = findCard(event.dataTransfer?.getData(CARD_DRAG_TYPE) ?? "");
    if (card) onMove(card, column, position);
  };
  const gated = board.settings.requireApprovalFor?.includes(column.id);
  const commented = board.settings.commentRequiredFor?.includes(column.id);
  return html`<section class=${`kanban-column ${over ? "drop-over" : ""}`} aria-labelledby=${headingId} data-column=${column.id}
      onDragOver=${(event: DragEvent) => { event.preventDefault(); setOver(true); }}
      onDragLeave=${() => setOver(false)}
      onDrop=${(event: DragEvent) => dropped(event)}>
    <div class="kanban-column-head">
      <h2 id=${headingId}>${column.name}</h2>
      <${Badge} tone=${full ? "warn" : "muted"} title=${column.wipLimit ? "Cards / WIP limit" : "Cards"}>
        ${column.wipLimit ? `${cards.length} / ${column.wipLimit}` : String(cards.length)}
        <span class="visually-hidden">${column.wipLimit ? " cards, WIP limit" : " cards"}</span>
      <//>
    </div>
    ${gated ? html`<p class="meta">Entering needs a human approval.</p>` : null}
    ${commented ? html`<p class="meta">Entering needs a comment (move it from the card's page).</p>` : null}
    <ul class="kanban-cards" aria-label=${`Cards in ${column.name}`}>
      ${cards.slice(0, shown).map(
        (card) => html`<li key=${card.id} onDrop=${(event: DragEvent) => dropped(event, card.position)}>
          <${CardTile} card=${card} board=${board} left=${left} right=${right} onMove=${onMove} />
        </li>`,
      )}
    </ul>
    ${cards.length > shown
      ? html`<button type="button" class="button plain more" onClick=${() => setShown(shown + CARDS_PER_PAGE)}>Show more cards in ${column.name} (${cards.length - shown} more)</button>`
      : null}
  </section>`;
}
