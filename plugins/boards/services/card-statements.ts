// The SQL of card-store.ts, in the text both engines read (docs/store-kit.md): `?`
// placeholders, camelCase names in double quotes. On SQLite the store kit's `atomically`
// prepares each text once, so the card move keeps its statements prepared once.
import type { AtomicStatement, AtomicTx } from "@muster/plugin";
import { Card, type CardRow } from "../entities/card.ts";

/** Every column of the card table, from the entity (quoted: `column` is an SQL keyword, the rest camelCase). */
const FIELDS = Object.keys(Card.meta.properties) as (keyof CardRow)[];
export const CARD_COLUMNS = FIELDS.map((f) => `"${f}"`).join(", ");
/** What a card write may change: all but its identity and origin. */
const CHANGEABLE = FIELDS.filter((f) => !["id", "boardId", "createdBy", "createdAt"].includes(f));

/** The rows of the boards a step writes, locked in id order until it commits (PostgreSQL only: see {@link lockBoards}). */
const lock = (where: string) => `SELECT id FROM boards_boards WHERE ${where} ORDER BY id FOR UPDATE`;
/** A card's board and the boards of its delegation partners (the links are symmetric). */
const BOARDS_OF_CARD = `SELECT "boardId" FROM boards_cards WHERE id IN (?, (SELECT "delegatedFrom" FROM boards_cards WHERE id = ?), (SELECT "delegatedTo" FROM boards_cards WHERE id = ?))`;

export const CARD_SQL = {
  getCard: `SELECT ${CARD_COLUMNS} FROM boards_cards WHERE id = ?`,
  getBoard: `SELECT id, columns, settings, "archivedAt" FROM boards_boards WHERE id = ?`,
  insertCard: `INSERT INTO boards_cards (${CARD_COLUMNS}) VALUES (${FIELDS.map(() => "?").join(", ")})`,
  updateCard: `UPDATE boards_cards SET ${CHANGEABLE.map((f) => `"${f}" = ?`).join(", ")} WHERE id = ?`,
  bump: "UPDATE boards_boards SET version = version + 1 WHERE id = ?",
  /** The boards holding these cards: a card's links to them were cleared, so their views change. */
  bumpBoardsOf: `UPDATE boards_boards SET version = version + 1 WHERE id IN (SELECT "boardId" FROM boards_cards WHERE id IN (?, ?))`,
  insertHistory: `INSERT INTO boards_card_history (id, "cardId", action, field, "fromValue", "toValue", "by", at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  insertComment: `INSERT INTO boards_card_comments (id, "cardId", author, content, "createdAt") VALUES (?, ?, ?, ?, ?)`,
  // A deleted card's children, delegation partners keep no dangling id.
  clearCardLinks: `UPDATE boards_cards SET "parentCardId" = CASE WHEN "parentCardId" = ? THEN NULL ELSE "parentCardId" END,
      "delegatedTo" = CASE WHEN "delegatedTo" = ? THEN NULL ELSE "delegatedTo" END,
      "delegatedFrom" = CASE WHEN "delegatedFrom" = ? THEN NULL ELSE "delegatedFrom" END
    WHERE "parentCardId" = ? OR "delegatedTo" = ? OR "delegatedFrom" = ?`,
  deleteCardHistory: `DELETE FROM boards_card_history WHERE "cardId" = ?`,
  deleteCardComments: `DELETE FROM boards_card_comments WHERE "cardId" = ?`,
  deleteCard: "DELETE FROM boards_cards WHERE id = ?",
  byLink: {
    storyId: `SELECT ${CARD_COLUMNS} FROM boards_cards WHERE "storyId" = ?`,
    epicId: `SELECT ${CARD_COLUMNS} FROM boards_cards WHERE "epicId" = ?`,
    sprintId: `SELECT ${CARD_COLUMNS} FROM boards_cards WHERE "sprintId" = ?`,
  },
  lock: {
    /** One board (a card created on it, the board itself changed). Params: board id. */
    board: lock("id = ?"),
    /** A card's step. Params: the card id three times. */
    card: lock(`id IN (${BOARDS_OF_CARD})`),
    /** A delegation: the card's board and the target. Params: target board id, card id. */
    delegation: lock(`id = ? OR id = (SELECT "boardId" FROM boards_cards WHERE id = ?)`),
    /** A link cleared on every card holding it. Params: the linked id. */
    byLink: {
      storyId: lock(`id IN (SELECT "boardId" FROM boards_cards WHERE "storyId" = ?)`),
      epicId: lock(`id IN (SELECT "boardId" FROM boards_cards WHERE "epicId" = ?)`),
      sprintId: lock(`id IN (SELECT "boardId" FROM boards_cards WHERE "sprintId" = ?)`),
    },
  },
};

export const insertValues = (row: CardRow): unknown[] => FIELDS.map((f) => row[f]);
export const updateValues = (row: CardRow): unknown[] => [...CHANGEABLE.map((f) => row[f]), row.id];

/**
 * On PostgreSQL, takes the rows of the boards the step will write, `FOR UPDATE`, before it
 * reads anything: every card step of a board then runs one after the other (20 concurrent
 * moves into a column with one free slot: one success), and reads what the previous one
 * committed. Each step locks all its boards in one statement, in id order, so two steps never
 * wait for each other's. On SQLite nothing: the whole step already runs alone on the connection.
 */
export function* lockBoards(tx: AtomicTx, postgres: boolean, sql: string, params: unknown[]): Generator<AtomicStatement, void, unknown> {
  if (postgres) yield* tx.all(sql, params);
}
