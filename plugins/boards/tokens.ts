import { token } from "@muster/plugin";
import type { BoardTemplate } from "./templates.ts";
import type { BoardColumn, BoardRecord, BoardSettings, CardComment, CardRecord, HistoryEntry } from "./services/records.ts";
import type { BoardChanges, CardFilter, HardDeleted } from "./services/board-store.ts";
import type { ApprovalRecord } from "../approvals/tokens.ts";

export type { BoardColumn, BoardRecord, BoardSettings, BoardTemplate, CardComment, CardRecord, HistoryEntry, BoardChanges, CardFilter, HardDeleted };

/** A new board: `columns` or a `template` (whose columns and settings it starts from). */
export interface NewBoard {
  name: string;
  template?: string;
  columns?: BoardColumn[];
  description?: string | null;
  type?: BoardRecord["type"];
  owner?: string;
  squad?: string | null;
  settings?: BoardSettings;
}

/** Card fields as the API takes them (JSON fields as values). */
export interface CardInput {
  title?: string;
  description?: string | null;
  assignee?: string | null;
  labels?: string[];
  priority?: CardRecord["priority"];
  dueDate?: string | null;
  checklist?: CardRecord["checklist"];
  attachments?: CardRecord["attachments"];
  parentCardId?: string | null;
  storyId?: string | null;
  epicId?: string | null;
  sprintId?: string | null;
  progress?: number;
}

export interface NewCard extends CardInput {
  title: string;
  column?: string;
  position?: number;
  comment?: string;
}

export interface CardPatch extends CardInput {
  column?: string;
  position?: number;
  archived?: boolean;
  comment?: string;
}

/** What an approval of a gated move stores: the whole PATCH, applied when a human approves. */
export interface MovePayload {
  cardId: string;
  /** The column the card was in when the move was requested; the move is refused if it left it. */
  fromColumn: string;
  patch: CardPatch;
  by: string;
}

/** A PATCH either changed the card or, for a move into a `requireApprovalFor` column, asked a human. */
export type CardPatchResult = { card: CardRecord } | { approval: ApprovalRecord };

/** Boards, cards, comments and history (`/api/boards`, `/api/cards`). */
export interface Boards {
  templates(): readonly BoardTemplate[];
  listBoards(filter: { archived: boolean; squad?: string }): Promise<BoardRecord[]>;
  createBoard(input: NewBoard, by: string): Promise<BoardRecord>;
  getBoard(id: string): Promise<BoardRecord>;
  /** `{ ok, board, cards }` as JSON bytes, cached per board version. */
  boardView(id: string): Promise<Buffer>;
  updateBoard(id: string, changes: BoardChanges, by: string): Promise<BoardRecord>;
  hardDeleteBoard(id: string): Promise<HardDeleted>;
  listCards(boardId: string, filter: CardFilter): Promise<CardRecord[]>;
  createCard(boardId: string, input: NewCard, by: string): Promise<CardRecord>;
  getCard(id: string): Promise<{ card: CardRecord; history: HistoryEntry[] }>;
  changeCard(id: string, patch: CardPatch, by: string): Promise<CardPatchResult>;
  hardDeleteCard(id: string): Promise<void>;
  comments(cardId: string): Promise<CardComment[]>;
  addComment(cardId: string, content: string, author: string): Promise<CardComment>;
  claim(cardId: string, agentId: string): Promise<CardRecord>;
  delegate(cardId: string, input: { boardId: string; assignee?: string; message?: string }, by: string): Promise<{ card: CardRecord; delegatedCard: CardRecord }>;
  /** The executor of the gated `boards.card.move`: applies the approved PATCH after checking again. */
  applyApprovedMove(payload: MovePayload): Promise<{ card: CardRecord }>;
  /** A story, epic or sprint was deleted: cards linking it lose the link. */
  clearLink(field: "storyId" | "epicId" | "sprintId", linkedId: string): Promise<void>;
}

/** The boards service. Depend on the `boards` plugin to use it. */
export const BOARDS = token<Boards>("boards.service");
