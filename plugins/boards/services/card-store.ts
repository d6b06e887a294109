// Every write to cards, comments and history. The interface is asynchronous and names no
// driver; the plain reads of boards and cards are the store kit's, in board-store.ts. Each
// write here is a condition over other rows and several statements that must be one step
// (board not archived, column known, WIP limit, claim still free, card not moved meanwhile;
// dense positions shifted, history and the board's version written with the card), which the
// kit's single-row `transition` cannot say: so each is one `atomically` step (docs/store-kit.md).
// On SQLite it runs synchronously on the shared connection, which no other request can
// interleave with, over statements prepared once (the card move is a measured hot path,
// docs/benchmarks.md); on PostgreSQL it first locks the rows of the boards it writes
// (card-statements.ts, `lockBoards`), so the steps of one board still run one at a time: 20
// concurrent moves into a column with one free slot give exactly one success on both. A thrown
// MusterError rolls the whole step back.
import { atomically, type AtomicStatement, type AtomicTx, type Database } from "@muster/plugin";
import { randomUUID } from "node:crypto";
import type { CardRow } from "../entities/card.ts";
import type { CardCommentRow } from "../entities/card-comment.ts";
import { boardErrors } from "../errors.ts";
import { CARD_SQL as S, insertValues, lockBoards, updateValues } from "./card-statements.ts";
import { orderedId } from "./ordered-id.ts";
import { closeGap, countInColumn, openGap, shiftWithin } from "./positions.ts";
import { doneColumnOf, type BoardColumn, type BoardSettings, type HistoryAction, type HistoryEntry } from "./records.ts";

/** The card fields a PATCH or create may set, as stored (JSON fields as text). */
export const CARD_FIELDS = [
  "title", "description", "assignee", "labels", "priority", "dueDate", "checklist", "attachments",
  "parentCardId", "storyId", "epicId", "sprintId", "progress",
] as const;
export type CardField = (typeof CARD_FIELDS)[number];
export type CardFields = Partial<Record<CardField, string | number | null>>;

export interface CardChange {
  fields: CardFields;
  /** Target column and/or position; a position past the column's end is the end. */
  move?: { column?: string; position?: number };
  /** true archives, false restores (at the end of its column unless `move` says otherwise). */
  archived?: boolean;
  /** Stored as a comment by `by`; required by a move into a `commentRequiredFor` column. */
  comment?: string;
  /**
   * Set by an approved move: the card must still be in the column (and not archived) it was
   * in when the move was requested. Its position may have shifted through other cards' moves.
   */
  expect?: { column: string };
  /** An approved move: the target column's `requireApprovalFor` policy is satisfied. */
  approved?: boolean;
  by: string;
}

export interface CardWrite {
  card: CardRow;
  history: HistoryEntry[];
  comment?: CardCommentRow;
  /** The source card of a delegation, completed because this (delegated) card reached done. */
  followed?: { card: CardRow; history: HistoryEntry[] };
}

/** The move needs a human approval first; nothing was written. */
export interface NeedsApproval {
  needsApproval: { card: CardRow; column: string };
}

interface BoardState {
  id: string;
  columns: BoardColumn[];
  settings: BoardSettings;
  archivedAt: string | null;
}

export interface NewCard {
  boardId: string;
  title: string;
  column?: string;
  position?: number;
  fields: CardFields;
  comment?: string;
  createdBy: string;
  delegatedFrom?: string | null;
}

/** A statement sequence of a step, yielded to `atomically`. */
type Step<T> = Generator<AtomicStatement, T, unknown>;

export class CardStore {
  private readonly db: () => Database;
  constructor(db: () => Database) {
    this.db = db;
  }

  /**
   * Runs one atomic step (`atomically`). The body gets whether the database is PostgreSQL, for
   * {@link lockBoards}; its outcome, or its MusterError, is the promise's.
   */
  private step<T>(body: (tx: AtomicTx, postgres: boolean) => Step<T>): Promise<T> {
    const db = this.db();
    const postgres = db.engine === "postgresql";
    return atomically(db, (tx) => body(tx, postgres));
  }

  /** Creates a card in its column (the first unless given) at `position` (the end unless given). */
  create(input: NewCard, now: string): Promise<CardWrite> {
    const store = this;
    return this.step(function* (tx, postgres) {
      yield* lockBoards(tx, postgres, S.lock.board, [input.boardId]);
      return yield* store.insert(tx, input, now);
    });
  }

  /** The creation step, inside a step (a delegation creates its card within its own). */
  private *insert(tx: AtomicTx, input: NewCard, now: string): Step<CardWrite> {
    const board = yield* this.board(tx, input.boardId);
    if (board.archivedAt) throw boardErrors.BOARD_ARCHIVED({ id: board.id });
    const column = input.column ?? board.columns[0]!.id;
    const target = columnOf(board, column);
    if (board.settings.requireApprovalFor?.includes(column)) throw boardErrors.BOARD_COLUMN_GATED({ column });
    if (board.settings.commentRequiredFor?.includes(column) && !input.comment) throw boardErrors.CARD_COMMENT_REQUIRED({ column });
    const count = yield* countInColumn(tx, board.id, column);
    checkWip(target, count);
    yield* this.checkParent(tx, board.id, null, input.fields.parentCardId);
    const position = Math.min(input.position ?? count, count);
    yield* openGap(tx, board.id, column, position);
    const row: CardRow = {
      id: randomUUID(), boardId: board.id, title: input.title, description: null, column, position, assignee: null, labels: "[]", priority: "medium",
      dueDate: null, checklist: "[]", attachments: "[]", parentCardId: null, storyId: null, epicId: null, sprintId: null, progress: 0,
      delegatedTo: null, delegatedFrom: input.delegatedFrom ?? null, createdBy: input.createdBy, createdAt: now, updatedAt: now,
      completedAt: column === doneColumnOf(board.columns, board.settings) ? now : null, archivedAt: null,
      ...(input.fields as Partial<CardRow>),
    };
    yield* tx.run(S.insertCard, insertValues(row));
    const history = [yield* this.history(tx, row, "created", null, null, column, input.createdBy, now)];
    const comment = input.comment ? yield* this.comment(tx, row, input.comment, input.createdBy, now, history) : undefined;
    yield* tx.run(S.bump, [board.id]);
    return { card: row, history, comment };
  }

  /**
   * Applies a PATCH: field changes, a move, archive or restore, and a comment, all or nothing.
   * A move into a `requireApprovalFor` column that is not yet approved writes nothing and
   * answers `needsApproval`.
   */
  change(id: string, change: CardChange, now: string): Promise<CardWrite | NeedsApproval> {
    const store = this;
    return this.step(function* (tx, postgres): Step<CardWrite | NeedsApproval> {
      // The delegation source's board too: reaching done completes the source (followDelegation).
      yield* lockBoards(tx, postgres, S.lock.card, [id, id, id]);
      const card = yield* store.card(tx, id);
      const board = yield* store.board(tx, card.boardId);
      if (board.archivedAt) throw boardErrors.BOARD_ARCHIVED({ id: board.id });
      // An approved restore finds its card archived, as it was when requested; any other approved move needs it on the board.
      if (change.expect && ((card.archivedAt && change.archived !== false) || card.column !== change.expect.column)) {
        throw boardErrors.CARD_MOVED_MEANWHILE({ id, expected: change.expect.column, actual: card.archivedAt ? "the archive" : card.column });
      }
      const history: HistoryEntry[] = [];
      const next: CardRow = { ...card };
      const restoring = change.archived === false && card.archivedAt !== null;
      if (card.archivedAt && !restoring && (change.move || Object.keys(change.fields).length > 0 || change.archived === undefined)) {
        throw boardErrors.CARD_ARCHIVED({ id });
      }

      // The move first: it may need an approval, in which case nothing else happens now.
      const toColumn = change.move?.column ?? card.column;
      const entering = restoring || toColumn !== card.column;
      if (change.move || restoring) {
        const target = columnOf(board, toColumn);
        if (entering && toColumn !== card.column && board.settings.commentRequiredFor?.includes(toColumn) && !change.comment) {
          throw boardErrors.CARD_COMMENT_REQUIRED({ column: toColumn });
        }
        if (entering && toColumn !== card.column && board.settings.requireApprovalFor?.includes(toColumn) && !change.approved) {
          return { needsApproval: { card, column: toColumn } };
        }
        const count = (yield* countInColumn(tx, board.id, toColumn)) - (entering ? 0 : 1);
        if (entering) checkWip(target, count);
        const position = Math.min(change.move?.position ?? (entering ? count : card.position), count);
        if (restoring) {
          yield* openGap(tx, board.id, toColumn, position);
          next.archivedAt = null;
          history.push(yield* store.history(tx, card, "restored", "archivedAt", card.archivedAt, null, change.by, now));
        } else if (entering) {
          yield* closeGap(tx, board.id, card.column, card.position);
          yield* openGap(tx, board.id, toColumn, position);
        } else {
          yield* shiftWithin(tx, board.id, card.column, card.position, position);
        }
        next.column = toColumn;
        next.position = position;
        if (toColumn !== card.column) history.push(yield* store.history(tx, card, "moved", "column", card.column, toColumn, change.by, now));
        else if (!restoring && position !== card.position) history.push(yield* store.history(tx, card, "moved", "position", String(card.position), String(position), change.by, now));
      } else if (change.archived === true && !card.archivedAt) {
        yield* closeGap(tx, board.id, card.column, card.position);
        next.archivedAt = now;
        next.position = -1;
        history.push(yield* store.history(tx, card, "archived", "archivedAt", null, now, change.by, now));
      }

      if (change.fields.parentCardId !== undefined && change.fields.parentCardId !== card.parentCardId) yield* store.checkParent(tx, board.id, id, change.fields.parentCardId);
      for (const field of CARD_FIELDS) {
        const value = change.fields[field];
        if (value === undefined || value === card[field]) continue;
        (next as Record<string, unknown>)[field] = value;
        history.push(yield* store.history(tx, card, "updated", field, stored(card[field]), stored(value), change.by, now));
      }

      let followed: CardWrite["followed"];
      if (next.column !== card.column || restoring) {
        const done = doneColumnOf(board.columns, board.settings);
        if (next.column === done && card.column !== done) next.completedAt = now;
        else if (next.column !== done) next.completedAt = null;
        if (next.column === done && next.delegatedFrom) followed = yield* store.followDelegation(tx, next, change.by, now);
      }

      const comment = change.comment ? yield* store.comment(tx, card, change.comment, change.by, now, history) : undefined;
      if (history.length === 0) return { card, history };
      next.updatedAt = now;
      yield* tx.run(S.updateCard, updateValues(next));
      yield* tx.run(S.bump, [board.id]);
      return { card: next, history, comment, followed };
    });
  }

  /** Assigns a free card to `agentId`; a claimed card is a 409 whoever holds it. */
  claim(id: string, agentId: string, now: string): Promise<CardWrite> {
    const store = this;
    return this.step(function* (tx, postgres) {
      yield* lockBoards(tx, postgres, S.lock.card, [id, id, id]);
      const card = yield* store.card(tx, id);
      const board = yield* store.board(tx, card.boardId);
      if (board.archivedAt) throw boardErrors.BOARD_ARCHIVED({ id: board.id });
      if (card.archivedAt) throw boardErrors.CARD_ARCHIVED({ id });
      if (card.assignee !== null) throw boardErrors.CARD_ALREADY_CLAIMED({ id, assignee: card.assignee });
      const next = { ...card, assignee: agentId, updatedAt: now };
      yield* tx.run(S.updateCard, updateValues(next));
      yield* tx.run(S.bump, [board.id]);
      return { card: next, history: [yield* store.history(tx, card, "claimed", "assignee", null, agentId, agentId, now)] };
    });
  }

  /** Adds a comment (also a `commented` history row). */
  addComment(id: string, content: string, author: string, now: string): Promise<CardWrite & { comment: CardCommentRow }> {
    const store = this;
    return this.step(function* (tx, postgres) {
      yield* lockBoards(tx, postgres, S.lock.card, [id, id, id]);
      const card = yield* store.card(tx, id);
      const history: HistoryEntry[] = [];
      const comment = yield* store.comment(tx, card, content, author, now, history);
      yield* tx.run(S.bump, [card.boardId]);
      return { card, history, comment };
    });
  }

  /** Deletes a card with its comments and history, closes its gap, and clears links to it. */
  hardDelete(id: string): Promise<CardRow> {
    const store = this;
    return this.step(function* (tx, postgres) {
      yield* lockBoards(tx, postgres, S.lock.card, [id, id, id]);
      const card = yield* store.card(tx, id);
      if (!card.archivedAt) yield* closeGap(tx, card.boardId, card.column, card.position);
      // The delegation partner's board shows the link that is cleared: its view changes too.
      if (card.delegatedTo || card.delegatedFrom) yield* tx.run(S.bumpBoardsOf, [card.delegatedTo, card.delegatedFrom]);
      yield* tx.run(S.clearCardLinks, [id, id, id, id, id, id]);
      yield* tx.run(S.deleteCardHistory, [id]);
      yield* tx.run(S.deleteCardComments, [id]);
      yield* tx.run(S.deleteCard, [id]);
      yield* tx.run(S.bump, [card.boardId]);
      return card;
    });
  }

  /**
   * Hands a card to another squad's board: a new card in that board's first column,
   * assigned to `assignee` (default the board's `settings.lead`), linked both ways.
   */
  delegate(id: string, input: { boardId: string; assignee?: string; message?: string; by: string }, now: string): Promise<{ source: CardWrite; delegated: CardWrite }> {
    const store = this;
    return this.step(function* (tx, postgres) {
      yield* lockBoards(tx, postgres, S.lock.delegation, [input.boardId, id]);
      const card = yield* store.card(tx, id);
      const board = yield* store.board(tx, card.boardId);
      if (board.archivedAt) throw boardErrors.BOARD_ARCHIVED({ id: board.id });
      if (card.archivedAt) throw boardErrors.CARD_ARCHIVED({ id });
      if (card.delegatedTo) throw boardErrors.CARD_ALREADY_DELEGATED({ id, delegatedTo: card.delegatedTo });
      if (input.boardId === card.boardId) throw boardErrors.CARD_DELEGATION_SAME_BOARD({ id, boardId: card.boardId });
      const target = yield* store.board(tx, input.boardId);
      const assignee = input.assignee ?? target.settings.lead;
      if (!assignee) throw boardErrors.CARD_DELEGATION_LEAD_REQUIRED({ boardId: target.id });
      const labels = [...new Set([...(JSON.parse(card.labels) as string[]), "delegated"])];
      const description = input.message ? [card.description, input.message].filter(Boolean).join("\n\n") : card.description;
      const delegated = yield* store.insert(
        tx,
        {
          boardId: target.id,
          title: card.title,
          fields: { description, assignee, labels: JSON.stringify(labels), priority: card.priority, dueDate: card.dueDate, checklist: card.checklist },
          createdBy: input.by,
          delegatedFrom: card.id,
          column: target.columns.find((c) => !target.settings.requireApprovalFor?.includes(c.id) && !target.settings.commentRequiredFor?.includes(c.id))?.id,
        },
        now,
      );
      delegated.history.push(yield* store.history(tx, delegated.card, "delegated", "delegatedFrom", null, card.id, input.by, now));
      const next = { ...card, delegatedTo: delegated.card.id, updatedAt: now };
      yield* tx.run(S.updateCard, updateValues(next));
      yield* tx.run(S.bump, [card.boardId]);
      return { source: { card: next, history: [yield* store.history(tx, card, "delegated", "delegatedTo", null, delegated.card.id, input.by, now)] }, delegated };
    });
  }

  /** Clears a story, epic or sprint link on every card holding it (the record was deleted). */
  clearLink(field: "storyId" | "epicId" | "sprintId", linkedId: string, now: string): Promise<CardWrite[]> {
    const store = this;
    return this.step(function* (tx, postgres) {
      yield* lockBoards(tx, postgres, S.lock.byLink[field], [linkedId]);
      const cards = yield* tx.all<CardRow>(S.byLink[field], [linkedId]);
      const writes: CardWrite[] = [];
      for (const card of cards) {
        const next = { ...card, [field]: null, updatedAt: now };
        yield* tx.run(S.updateCard, updateValues(next));
        yield* tx.run(S.bump, [card.boardId]);
        writes.push({ card: next, history: [yield* store.history(tx, card, "unlinked", field, linkedId, null, "system", now)] });
      }
      return writes;
    });
  }

  /** The delegated card reached its done column: the source card is completed too (docs/boards.md). */
  private *followDelegation(tx: AtomicTx, delegated: CardRow, by: string, now: string): Step<CardWrite["followed"]> {
    const source = yield* tx.get<CardRow>(S.getCard, [delegated.delegatedFrom]);
    if (!source || source.archivedAt || source.completedAt) return undefined;
    const board = yield* this.board(tx, source.boardId);
    if (board.archivedAt) return undefined;
    const done = doneColumnOf(board.columns, board.settings);
    const next = { ...source, completedAt: now, updatedAt: now };
    const history: HistoryEntry[] = [];
    const doneColumn = columnOf(board, done);
    const count = yield* countInColumn(tx, board.id, done);
    // Into its done column when the policies let it in without a human: no approval asked,
    // WIP limit not reached; otherwise it is marked completed where it is.
    if (source.column !== done && !board.settings.requireApprovalFor?.includes(done) && (doneColumn.wipLimit === undefined || count < doneColumn.wipLimit)) {
      yield* closeGap(tx, board.id, source.column, source.position);
      next.column = done;
      next.position = count;
      history.push(yield* this.history(tx, source, "moved", "column", source.column, done, by, now));
    }
    history.push(yield* this.history(tx, source, "completed", "delegatedTo", null, delegated.id, by, now));
    yield* tx.run(S.updateCard, updateValues(next));
    yield* tx.run(S.bump, [board.id]);
    return { card: next, history };
  }

  private *card(tx: AtomicTx, id: string): Step<CardRow> {
    const card = yield* tx.get<CardRow>(S.getCard, [id]);
    if (!card) throw boardErrors.CARD_NOT_FOUND({ id });
    return card;
  }

  private *board(tx: AtomicTx, id: string): Step<BoardState> {
    const row = yield* tx.get<{ id: string; columns: string; settings: string; archivedAt: string | null }>(S.getBoard, [id]);
    if (!row) throw boardErrors.BOARD_NOT_FOUND({ id });
    return { id: row.id, columns: JSON.parse(row.columns) as BoardColumn[], settings: JSON.parse(row.settings) as BoardSettings, archivedAt: row.archivedAt };
  }

  private *checkParent(tx: AtomicTx, boardId: string, cardId: string | null, parentCardId: string | number | null | undefined): Step<void> {
    if (typeof parentCardId !== "string") return;
    const parent = yield* tx.get<CardRow>(S.getCard, [parentCardId]);
    if (!parent || parent.boardId !== boardId || parentCardId === cardId) throw boardErrors.CARD_PARENT_INVALID({ parentCardId, boardId });
  }

  private *comment(tx: AtomicTx, card: CardRow, content: string, author: string, now: string, history: HistoryEntry[]): Step<CardCommentRow> {
    const comment = { id: orderedId(), cardId: card.id, author, content, createdAt: now };
    yield* tx.run(S.insertComment, [comment.id, comment.cardId, author, content, now]);
    // The history row keeps the start of the comment, as a change summary; the comment itself stays whole.
    history.push(yield* this.history(tx, card, "commented", null, null, [...content].slice(0, 100).join(""), author, now));
    return comment;
  }

  private *history(tx: AtomicTx, card: Pick<CardRow, "id">, action: HistoryAction, field: string | null, from: string | null, to: string | null, by: string, at: string): Step<HistoryEntry> {
    const entry = { id: orderedId(), cardId: card.id, action, field, from, to, by, at };
    yield* tx.run(S.insertHistory, [entry.id, card.id, action, field, from, to, by, at]);
    return entry;
  }
}

function columnOf(board: BoardState, column: string): BoardColumn {
  const found = board.columns.find((c) => c.id === column);
  if (!found) throw boardErrors.BOARD_COLUMN_UNKNOWN({ boardId: board.id, column });
  return found;
}

function checkWip(column: BoardColumn, count: number): void {
  if (column.wipLimit !== undefined && count >= column.wipLimit) throw boardErrors.WIP_LIMIT_REACHED({ column: column.id, count, limit: column.wipLimit });
}

/** A field value as a history row keeps it: text, numbers as text, JSON fields as their JSON text. */
function stored(value: string | number | null): string | null {
  return value === null ? null : String(value);
}
