// Dense positions: the cards of one column that are not archived always hold positions
// 0..n-1. These statements run only inside a store transaction (card-store.ts), which also
// writes the moved card itself.
import type { Database } from "@muster/plugin";

type Sql = Database["sql"];

/** The open slots of a column and the statements that keep it dense, prepared once per connection. */
export class Positions {
  private readonly sql: Sql;
  private readonly countStatement;
  private readonly closeStatement;
  private readonly openStatement;
  private readonly shiftUpStatement;
  private readonly shiftDownStatement;
  constructor(sql: Sql) {
    this.sql = sql;
    this.countStatement = sql.prepare(`SELECT count(*) AS n FROM boards_cards WHERE boardId = ? AND "column" = ? AND archivedAt IS NULL`).pluck();
    this.closeStatement = sql.prepare(`UPDATE boards_cards SET position = position - 1 WHERE boardId = ? AND "column" = ? AND archivedAt IS NULL AND position > ?`);
    this.openStatement = sql.prepare(`UPDATE boards_cards SET position = position + 1 WHERE boardId = ? AND "column" = ? AND archivedAt IS NULL AND position >= ?`);
    this.shiftUpStatement = sql.prepare(
      `UPDATE boards_cards SET position = position + 1 WHERE boardId = ? AND "column" = ? AND archivedAt IS NULL AND position >= ? AND position < ?`,
    );
    this.shiftDownStatement = sql.prepare(
      `UPDATE boards_cards SET position = position - 1 WHERE boardId = ? AND "column" = ? AND archivedAt IS NULL AND position > ? AND position <= ?`,
    );
  }

  /** Cards (not archived) in a column. */
  count(boardId: string, column: string): number {
    return this.countStatement.get(boardId, column) as number;
  }

  /** A card at `position` leaves the column: the cards after it move up one. */
  close(boardId: string, column: string, position: number): void {
    this.closeStatement.run(boardId, column, position);
  }

  /** A card will enter the column at `position`: the cards from there move down one. */
  open(boardId: string, column: string, position: number): void {
    this.openStatement.run(boardId, column, position);
  }

  /** A card moves within its column from `from` to `to`: the cards between shift by one. */
  shift(boardId: string, column: string, from: number, to: number): void {
    if (to < from) this.shiftUpStatement.run(boardId, column, to, from);
    else if (to > from) this.shiftDownStatement.run(boardId, column, from, to);
  }
}
