// Cards changed by live events, drawn at once over the board last loaded: a card moved in
// another browser or by an agent shows in its new place as soon as its event arrives, without
// waiting for the whole board (1,000 cards) to load again. The reload still follows and
// replaces these with the server's order (other cards' positions shift with a move).
import type { Card } from "./board-types.ts";

/** A card event's effect: the card as it now is, or gone from the board (archived, deleted). */
export type CardChange = { card: Card } | { gone: string };

/** `cards` (column order, then position) with `changes` applied in order; each changed card at its position in its column. */
export function withLiveCards(cards: readonly Card[], changes: readonly CardChange[]): Card[] {
  let result = [...cards];
  for (const change of changes) {
    const id = "card" in change ? change.card.id : change.gone;
    result = result.filter((card) => card.id !== id);
    if (!("card" in change)) continue;
    const moved = change.card;
    const column = result.flatMap((card, index) => (card.column === moved.column ? [index] : []));
    // Before the card now at its position, or after the column's last card; a column not drawn
    // yet keeps it at the end (the reload orders it).
    const at = column[moved.position] ?? (column.length ? column.at(-1)! + 1 : result.length);
    result.splice(at, 0, moved);
  }
  return result;
}
