// Dense positions: the cards of one column that are not archived always hold positions
// 0..n-1. These steps run only inside a card store step (card-store.ts), which also writes
// the moved card itself.
import type { AtomicStatement, AtomicTx } from "@muster/plugin";

type Step<T> = Generator<AtomicStatement, T, unknown>;

const IN_COLUMN = `"boardId" = ? AND "column" = ? AND "archivedAt" IS NULL`;
const COUNT = `SELECT count(*) AS n FROM boards_cards WHERE ${IN_COLUMN}`;
const CLOSE = `UPDATE boards_cards SET position = position - 1 WHERE ${IN_COLUMN} AND position > ?`;
const OPEN = `UPDATE boards_cards SET position = position + 1 WHERE ${IN_COLUMN} AND position >= ?`;
const SHIFT_UP = `UPDATE boards_cards SET position = position + 1 WHERE ${IN_COLUMN} AND position >= ? AND position < ?`;
const SHIFT_DOWN = `UPDATE boards_cards SET position = position - 1 WHERE ${IN_COLUMN} AND position > ? AND position <= ?`;

/** Cards (not archived) in a column. */
export function* countInColumn(tx: AtomicTx, boardId: string, column: string): Step<number> {
  // PostgreSQL's count is a bigint, read as a string.
  return Number((yield* tx.get<{ n: number | string }>(COUNT, [boardId, column]))!.n);
}

/** A card at `position` leaves the column: the cards after it move up one. */
export function* closeGap(tx: AtomicTx, boardId: string, column: string, position: number): Step<void> {
  yield* tx.run(CLOSE, [boardId, column, position]);
}

/** A card will enter the column at `position`: the cards from there move down one. */
export function* openGap(tx: AtomicTx, boardId: string, column: string, position: number): Step<void> {
  yield* tx.run(OPEN, [boardId, column, position]);
}

/** A card moves within its column from `from` to `to`: the cards between shift by one. */
export function* shiftWithin(tx: AtomicTx, boardId: string, column: string, from: number, to: number): Step<void> {
  if (to < from) yield* tx.run(SHIFT_UP, [boardId, column, to, from]);
  else if (to > from) yield* tx.run(SHIFT_DOWN, [boardId, column, from, to]);
}
