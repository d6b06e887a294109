// Boards: reads over the store kit (plain rows), behind an asynchronous interface that names
// no driver (issue 25 puts the same store on PostgreSQL). Raw SQL stays where the kit cannot
// say it: the writes whose checks must hold at the moment of writing (no column removed while
// it holds cards; a hard delete takes cards, comments and history with it) are one synchronous
// `sql.transaction()`, which no other request can interleave with; and the board view's hot
// path (docs/benchmarks.md) reads the version and the cards serialised by SQLite (json_group_array)
// through statements prepared once, the snapshot in one read transaction so it is consistent.
import { defineStore, insertionOrder, raw, type Database, type EntityStore } from "@muster/plugin";
import { Board, type BoardRow } from "../entities/board.ts";
import { Card, type CardRow } from "../entities/card.ts";
import { CardComment, type CardCommentRow } from "../entities/card-comment.ts";
import { CardHistory } from "../entities/card-history.ts";
import { boardErrors } from "../errors.ts";
import type { BoardColumn, BoardSettings, HistoryEntry } from "./records.ts";

const BOARD_FIELDS = Object.keys(Board.meta.properties) as (keyof BoardRow)[];
// Rows unmapped: text and number columns only (JSON columns stay text, as the records expect).
/** Most recently updated first. */
const boards = defineStore(Board, { orderBy: [{ updatedAt: "desc" }, insertionOrder("desc")], mapRows: false });
/** Column order, then position; archived cards by last update. */
const cards = defineStore(Card, { orderBy: [{ column: "asc" }, { position: "asc" }, { updatedAt: "desc" }], mapRows: false });
/** Oldest first. */
const comments = defineStore(CardComment, { fields: ["id", "cardId", "author", "content", "createdAt"], orderBy: [{ createdAt: "asc" }, insertionOrder("asc")], mapRows: false });
const histories = defineStore(CardHistory, { mapRows: false });
// The query builder types raw aliases poorly; the row shape is HistoryEntry.
const HISTORY_FIELDS: any[] = ["id", "cardId", "action", "field", raw('fromValue AS "from"'), raw('toValue AS "to"'), "by", "at"];

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

/** The board view's cards, serialised by SQLite itself: 10,000 cards become JSON in C, not in a JS loop. */
const CARDS_JSON = `SELECT json_group_array(json(card) ORDER BY columnIndex, position) FROM (
  SELECT json_object('id', c.id, 'boardId', c.boardId, 'title', c.title, 'description', c.description, 'column', c."column",
    'position', c.position, 'assignee', c.assignee, 'labels', json(c.labels), 'priority', c.priority, 'dueDate', c.dueDate,
    'checklist', json(c.checklist), 'attachments', json(c.attachments), 'parentCardId', c.parentCardId, 'storyId', c.storyId,
    'epicId', c.epicId, 'sprintId', c.sprintId, 'progress', c.progress, 'delegatedTo', c.delegatedTo, 'delegatedFrom', c.delegatedFrom,
    'createdBy', c.createdBy, 'createdAt', c.createdAt, 'updatedAt', c.updatedAt, 'completedAt', c.completedAt, 'archivedAt', c.archivedAt) AS card,
    CAST(j.key AS INTEGER) AS columnIndex, c.position AS position
  FROM boards_cards c JOIN json_each(@columns) j ON j.value ->> 'id' = c."column"
  WHERE c.boardId = @boardId AND c.archivedAt IS NULL)`;

export class BoardStore {
  private readonly db: () => Database;
  private readonly boards: EntityStore<typeof Board>;
  private readonly cards: EntityStore<typeof Card>;
  private readonly commentRows: EntityStore<typeof CardComment>;
  private readonly historyRows: EntityStore<typeof CardHistory>;
  private prepared?: ReturnType<typeof prepare>;
  constructor(db: () => Database) {
    this.db = db;
    this.boards = boards.on(db);
    this.cards = cards.on(db);
    this.commentRows = comments.on(db);
    this.historyRows = histories.on(db);
  }

  private get s() {
    this.prepared ??= prepare(this.db().sql);
    return this.prepared;
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

  /** The board row and its cards as one JSON array text, read in one synchronous step (consistent). */
  async snapshot(id: string): Promise<{ board: BoardRow; cardsJson: string } | undefined> {
    return this.db().sql.transaction(() => {
      const board = this.s.getBoard.get(id) as BoardRow | undefined;
      if (!board) return undefined;
      return { board, cardsJson: this.s.cardsJson.get({ boardId: id, columns: board.columns }) as string };
    })();
  }

  /** The board's change counter, to tell whether a cached view is current. */
  async version(id: string): Promise<number | undefined> {
    return this.s.version.get(id) as number | undefined;
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

  /** A card's history, oldest first; through the kit's query builder, which can rename columns (`fromValue AS "from"`). */
  history(cardId: string): Promise<HistoryEntry[]> {
    return this.historyRows.qb().select(HISTORY_FIELDS).where({ cardId }).orderBy([{ at: "asc" }, insertionOrder("asc")]).execute("all", false) as Promise<HistoryEntry[]>;
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
  async update(id: string, changes: BoardChanges, now: string): Promise<{ before: BoardRow; after: BoardRow }> {
    return this.db().sql.transaction(() => {
      const before = this.s.getBoard.get(id) as BoardRow | undefined;
      if (!before) throw boardErrors.BOARD_NOT_FOUND({ id });
      const after: BoardRow = { ...before, updatedAt: now, version: before.version + 1 };
      if (changes.columns) {
        const kept = new Set(changes.columns.map((c) => c.id));
        for (const column of JSON.parse(before.columns) as BoardColumn[]) {
          if (kept.has(column.id)) continue;
          const count = this.s.countInColumn.get(id, column.id) as number;
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
      this.s.update.run(after);
      return { before, after };
    })();
  }

  /** Deletes the board with its cards, their comments and history; links from other boards' cards are cleared. */
  async hardDelete(id: string): Promise<HardDeleted> {
    return this.db().sql.transaction(() => {
      if (this.s.getBoard.get(id) === undefined) throw boardErrors.BOARD_NOT_FOUND({ id });
      this.s.clearForeignLinks.run({ id });
      const history = this.s.deleteHistory.run(id).changes;
      const comments = this.s.deleteComments.run(id).changes;
      const cards = this.s.deleteCards.run(id).changes;
      this.s.deleteBoard.run(id);
      return { cards, comments, history };
    })();
  }
}

/** Policies and the done column must name columns of the board. */
export function checkPolicies(boardId: string, columns: BoardColumn[], settings: BoardSettings): void {
  const ids = new Set(columns.map((c) => c.id));
  for (const column of [...(settings.requireApprovalFor ?? []), ...(settings.commentRequiredFor ?? []), ...(settings.doneColumn ? [settings.doneColumn] : [])]) {
    if (!ids.has(column)) throw boardErrors.BOARD_COLUMN_UNKNOWN({ boardId, column });
  }
}

function prepare(sql: Database["sql"]) {
  const columns = BOARD_FIELDS.join(", ");
  return {
    getBoard: sql.prepare(`SELECT ${columns} FROM boards_boards WHERE id = ?`),
    version: sql.prepare("SELECT version FROM boards_boards WHERE id = ?").pluck(),
    cardsJson: sql.prepare(CARDS_JSON).pluck(),
    update: sql.prepare(
      `UPDATE boards_boards SET name = @name, description = @description, type = @type, columns = @columns, owner = @owner, squad = @squad,
       settings = @settings, version = @version, updatedAt = @updatedAt, archivedAt = @archivedAt WHERE id = @id`,
    ),
    countInColumn: sql.prepare(`SELECT count(*) FROM boards_cards WHERE boardId = ? AND "column" = ?`).pluck(),
    // Cards of other boards that were delegated to or from this board's cards keep no dangling id.
    clearForeignLinks: sql.prepare(
      `UPDATE boards_cards SET delegatedTo = CASE WHEN delegatedTo IN (SELECT id FROM boards_cards WHERE boardId = @id) THEN NULL ELSE delegatedTo END,
         delegatedFrom = CASE WHEN delegatedFrom IN (SELECT id FROM boards_cards WHERE boardId = @id) THEN NULL ELSE delegatedFrom END
       WHERE boardId <> @id AND (delegatedTo IN (SELECT id FROM boards_cards WHERE boardId = @id) OR delegatedFrom IN (SELECT id FROM boards_cards WHERE boardId = @id))`,
    ),
    deleteHistory: sql.prepare("DELETE FROM boards_card_history WHERE cardId IN (SELECT id FROM boards_cards WHERE boardId = ?)"),
    deleteComments: sql.prepare("DELETE FROM boards_card_comments WHERE cardId IN (SELECT id FROM boards_cards WHERE boardId = ?)"),
    deleteCards: sql.prepare("DELETE FROM boards_cards WHERE boardId = ?"),
    deleteBoard: sql.prepare("DELETE FROM boards_boards WHERE id = ?"),
  };
}
