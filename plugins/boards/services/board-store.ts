// Boards: reads over the store kit (plain rows), behind an asynchronous interface that names
// no driver, on SQLite and PostgreSQL. The writes whose checks must hold at the moment of
// writing (no column removed while it holds cards; a hard delete takes cards, comments and
// history with it) are `atomically` steps that on PostgreSQL first lock the board's row, as
// the card steps do (card-store.ts). The board view's hot path (docs/benchmarks.md) reads the
// board and its cards in one step: on SQLite the cards serialised by SQLite itself
// (json_group_array) over statements prepared once; on PostgreSQL two plain reads in one
// snapshot, serialised here to the same JSON.
import { atomically, defineStore, insertionOrder, type Database, type EntityStore } from "@muster/plugin";
import { Board, type BoardRow } from "../entities/board.ts";
import { Card, type CardRow } from "../entities/card.ts";
import { CardComment, type CardCommentRow } from "../entities/card-comment.ts";
import { CardHistory, type CardHistoryRow } from "../entities/card-history.ts";
import { boardErrors } from "../errors.ts";
import { CARD_COLUMNS, CARD_SQL, lockBoards } from "./card-statements.ts";
import { cardRecord, type BoardColumn, type BoardSettings, type HistoryEntry } from "./records.ts";

const BOARD_FIELDS = Object.keys(Board.meta.properties) as (keyof BoardRow)[];
const BOARD_COLUMNS = BOARD_FIELDS.map((f) => `"${f}"`).join(", ");
// Rows unmapped: text and number columns only (JSON columns stay text, as the records expect).
/** Most recently updated first. */
const boards = defineStore(Board, { orderBy: [{ updatedAt: "desc" }, insertionOrder("desc")], mapRows: false });
/** Column order, then position; archived cards by last update. */
const cards = defineStore(Card, { orderBy: [{ column: "asc" }, { position: "asc" }, { updatedAt: "desc" }], mapRows: false });
/** Oldest first. */
const comments = defineStore(CardComment, { fields: ["id", "cardId", "author", "content", "createdAt"], orderBy: [{ createdAt: "asc" }, insertionOrder("asc")], mapRows: false });
/** Oldest first; the rows of one change (same `at`) as written (ids sort so on PostgreSQL: ordered-id.ts). */
const histories = defineStore(CardHistory, { orderBy: [{ at: "asc" }, insertionOrder("asc")], mapRows: false });

export interface CardFilter {
  column?: string;
  assignee?: string;
  /** true: only archived cards; false (default): only cards on the board. */
  archived: boolean;
}

export interface BoardChanges {
  name?: string;
  description?: string | null;
  type?: BoardRow["type"];
  columns?: BoardColumn[];
  owner?: string;
  squad?: string | null;
  settings?: BoardSettings;
  archived?: boolean;
}

export interface HardDeleted {
  cards: number;
  comments: number;
  history: number;
}

/** The boards of the cards delegated to or from a board's cards (its own included when they are on it). Params: the board id twice. */
const PARTNER_BOARDS = `SELECT "boardId" FROM boards_cards WHERE id IN (
  SELECT "delegatedTo" FROM boards_cards WHERE "boardId" = ? UNION SELECT "delegatedFrom" FROM boards_cards WHERE "boardId" = ?)`;

const SQL = {
  getBoard: `SELECT ${BOARD_COLUMNS} FROM boards_boards WHERE id = ?`,
  version: "SELECT version FROM boards_boards WHERE id = ?",
  /** On SQLite: the board view's cards, serialised by SQLite itself: 10,000 cards become JSON in C, not in a JS loop. */
  cardsJson: `SELECT json_group_array(json(card) ORDER BY columnIndex, position) AS cards FROM (
    SELECT json_object('id', c.id, 'boardId', c.boardId, 'title', c.title, 'description', c.description, 'column', c."column",
      'position', c.position, 'assignee', c.assignee, 'labels', json(c.labels), 'priority', c.priority, 'dueDate', c.dueDate,
      'checklist', json(c.checklist), 'attachments', json(c.attachments), 'parentCardId', c.parentCardId, 'storyId', c.storyId,
      'epicId', c.epicId, 'sprintId', c.sprintId, 'progress', c.progress, 'delegatedTo', c.delegatedTo, 'delegatedFrom', c.delegatedFrom,
      'createdBy', c.createdBy, 'createdAt', c.createdAt, 'updatedAt', c.updatedAt, 'completedAt', c.completedAt, 'archivedAt', c.archivedAt) AS card,
      CAST(j.key AS INTEGER) AS columnIndex, c.position AS position
    FROM boards_cards c JOIN json_each(?) j ON j.value ->> 'id' = c."column"
    WHERE c.boardId = ? AND c.archivedAt IS NULL)`,
  /** On PostgreSQL: the board's cards on the board, every column in the entity's order (the keys of the view's cards). */
  cardsOfBoard: `SELECT ${CARD_COLUMNS} FROM boards_cards WHERE "boardId" = ? AND "archivedAt" IS NULL`,
  /** PostgreSQL: the two reads of the view see one snapshot (the board's version and exactly its cards). */
  snapshot: "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY",
  update: `UPDATE boards_boards SET name = ?, description = ?, type = ?, columns = ?, owner = ?, squad = ?, settings = ?, version = ?, "updatedAt" = ?, "archivedAt" = ? WHERE id = ?`,
  countInColumn: `SELECT count(*) AS n FROM boards_cards WHERE "boardId" = ? AND "column" = ?`,
  // Cards of other boards that were delegated to or from this board's cards keep no dangling id, and their boards' views change.
  bumpPartners: `UPDATE boards_boards SET version = version + 1 WHERE id <> ? AND id IN (${PARTNER_BOARDS})`,
  clearForeignLinks: `UPDATE boards_cards SET "delegatedTo" = CASE WHEN "delegatedTo" IN (SELECT id FROM boards_cards WHERE "boardId" = ?) THEN NULL ELSE "delegatedTo" END,
      "delegatedFrom" = CASE WHEN "delegatedFrom" IN (SELECT id FROM boards_cards WHERE "boardId" = ?) THEN NULL ELSE "delegatedFrom" END
    WHERE "boardId" <> ? AND ("delegatedTo" IN (SELECT id FROM boards_cards WHERE "boardId" = ?) OR "delegatedFrom" IN (SELECT id FROM boards_cards WHERE "boardId" = ?))`,
  deleteHistory: `DELETE FROM boards_card_history WHERE "cardId" IN (SELECT id FROM boards_cards WHERE "boardId" = ?)`,
  deleteComments: `DELETE FROM boards_card_comments WHERE "cardId" IN (SELECT id FROM boards_cards WHERE "boardId" = ?)`,
  deleteCards: `DELETE FROM boards_cards WHERE "boardId" = ?`,
  deleteBoard: "DELETE FROM boards_boards WHERE id = ?",
  /** PostgreSQL: the board and its cards' delegation partners' boards, in id order (card-statements.ts, `lockBoards`). */
  lockWithPartners: `SELECT id FROM boards_boards WHERE id = ? OR id IN (${PARTNER_BOARDS}) ORDER BY id FOR UPDATE`,
};

export class BoardStore {
  private readonly db: () => Database;
  private readonly boards: EntityStore<typeof Board>;
  private readonly cards: EntityStore<typeof Card>;
  private readonly commentRows: EntityStore<typeof CardComment>;
  private readonly historyRows: EntityStore<typeof CardHistory>;
  constructor(db: () => Database) {
    this.db = db;
    this.boards = boards.on(db);
    this.cards = cards.on(db);
    this.commentRows = comments.on(db);
    this.historyRows = histories.on(db);
  }

  /** Boards, most recently updated first; archived ones only when asked. */
  listBoards(filter: { archived: boolean; squad?: string }): Promise<BoardRow[]> {
    const where: Record<string, unknown> = { archivedAt: filter.archived ? { $ne: null } : null };
    if (filter.squad !== undefined) where.squad = filter.squad;
    return this.boards.list({ where });
  }

  async findBoard(id: string): Promise<BoardRow | undefined> {
    return (await this.boards.get(id)) ?? undefined;
  }

  /** The board row and its cards (on the board, in column order, then position) as one JSON array text, read in one snapshot. */
  snapshot(id: string): Promise<{ board: BoardRow; cardsJson: string } | undefined> {
    const db = this.db();
    const postgres = db.engine === "postgresql";
    return atomically(db, function* (tx) {
      if (postgres) yield* tx.run(SQL.snapshot);
      const board = yield* tx.get<BoardRow>(SQL.getBoard, [id]);
      if (!board) return undefined;
      if (!postgres) return { board, cardsJson: (yield* tx.get<{ cards: string }>(SQL.cardsJson, [board.columns, id]))!.cards };
      const order = new Map((JSON.parse(board.columns) as BoardColumn[]).map((c, i) => [c.id, i]));
      const onBoard = (yield* tx.all<CardRow>(SQL.cardsOfBoard, [id])).filter((c) => order.has(c.column));
      onBoard.sort((a, b) => order.get(a.column)! - order.get(b.column)! || a.position - b.position);
      return { board, cardsJson: JSON.stringify(onBoard.map(cardRecord)) };
    });
  }

  /** The board's change counter, to tell whether a cached view is current. */
  async version(id: string): Promise<number | undefined> {
    return (await atomically(this.db(), (tx) => tx.get<{ version: number }>(SQL.version, [id])))?.version;
  }

  /** A board's cards, in column order then position (archived ones by last update). */
  listCards(boardId: string, filter: CardFilter): Promise<CardRow[]> {
    const where: Record<string, unknown> = { boardId, archivedAt: filter.archived ? { $ne: null } : null };
    if (filter.column !== undefined) where.column = filter.column;
    if (filter.assignee !== undefined) where.assignee = filter.assignee;
    return this.cards.list({ where });
  }

  async findCard(id: string): Promise<CardRow | undefined> {
    return (await this.cards.get(id)) ?? undefined;
  }

  /** A card's history, oldest first (the stored `fromValue`/`toValue` as `from`/`to`). */
  async history(cardId: string): Promise<HistoryEntry[]> {
    const rows = (await this.historyRows.list({ where: { cardId } })) as CardHistoryRow[];
    return rows.map((r) => ({ id: r.id, cardId: r.cardId, action: r.action as HistoryEntry["action"], field: r.field, from: r.fromValue, to: r.toValue, by: r.by, at: r.at }));
  }

  /** A card's comments, oldest first. */
  comments(cardId: string): Promise<CardCommentRow[]> {
    return this.commentRows.list({ where: { cardId } }) as Promise<CardCommentRow[]>;
  }

  insert(row: BoardRow): Promise<void> {
    return this.boards.insert(row);
  }

  /**
   * Applies validated changes. A column that disappears must hold no card (archived ones
   * count: they return to their column when restored); the count and the write are one step.
   */
  update(id: string, changes: BoardChanges, now: string): Promise<{ before: BoardRow; after: BoardRow }> {
    const db = this.db();
    return atomically(db, function* (tx) {
      // A card created meanwhile in a column being removed waits, then is counted.
      yield* lockBoards(tx, db.engine === "postgresql", CARD_SQL.lock.board, [id]);
      const before = yield* tx.get<BoardRow>(SQL.getBoard, [id]);
      if (!before) throw boardErrors.BOARD_NOT_FOUND({ id });
      const after: BoardRow = { ...before, updatedAt: now, version: before.version + 1 };
      if (changes.columns) {
        const kept = new Set(changes.columns.map((c) => c.id));
        for (const column of JSON.parse(before.columns) as BoardColumn[]) {
          if (kept.has(column.id)) continue;
          const count = Number((yield* tx.get<{ n: number | string }>(SQL.countInColumn, [id, column.id]))!.n);
          if (count > 0) throw boardErrors.BOARD_COLUMN_NOT_EMPTY({ boardId: id, column: column.id, count });
        }
        after.columns = JSON.stringify(changes.columns);
      }
      if (changes.settings) after.settings = JSON.stringify(changes.settings);
      checkPolicies(id, JSON.parse(after.columns) as BoardColumn[], JSON.parse(after.settings) as BoardSettings);
      for (const key of ["name", "description", "type", "owner", "squad"] as const) {
        if (changes[key] !== undefined) (after as Record<string, unknown>)[key] = changes[key];
      }
      if (changes.archived !== undefined) after.archivedAt = changes.archived ? (before.archivedAt ?? now) : null;
      const { name, description, type, columns, owner, squad, settings, version, updatedAt, archivedAt } = after;
      yield* tx.run(SQL.update, [name, description, type, columns, owner, squad, settings, version, updatedAt, archivedAt, id]);
      return { before, after };
    });
  }

  /** Deletes the board with its cards, their comments and history; links from other boards' cards are cleared. */
  hardDelete(id: string): Promise<HardDeleted> {
    const db = this.db();
    return atomically(db, function* (tx) {
      yield* lockBoards(tx, db.engine === "postgresql", SQL.lockWithPartners, [id, id, id]);
      if ((yield* tx.get(SQL.getBoard, [id])) === undefined) throw boardErrors.BOARD_NOT_FOUND({ id });
      yield* tx.run(SQL.bumpPartners, [id, id, id]);
      yield* tx.run(SQL.clearForeignLinks, [id, id, id, id, id]);
      const history = (yield* tx.run(SQL.deleteHistory, [id])).changes;
      const comments = (yield* tx.run(SQL.deleteComments, [id])).changes;
      const cards = (yield* tx.run(SQL.deleteCards, [id])).changes;
      yield* tx.run(SQL.deleteBoard, [id]);
      return { cards, comments, history };
    });
  }
}

/** Policies and the done column must name columns of the board. */
export function checkPolicies(boardId: string, columns: BoardColumn[], settings: BoardSettings): void {
  const ids = new Set(columns.map((c) => c.id));
  for (const column of [...(settings.requireApprovalFor ?? []), ...(settings.commentRequiredFor ?? []), ...(settings.doneColumn ? [settings.doneColumn] : [])]) {
    if (!ids.has(column)) throw boardErrors.BOARD_COLUMN_UNKNOWN({ boardId, column });
  }
}
