// The API shapes of boards, cards, comments and history, and the conversions from stored
// rows (JSON text columns parsed, internal columns left out).
import type { BoardRow } from "../entities/board.ts";
import type { CardRow } from "../entities/card.ts";
import type { CardCommentRow } from "../entities/card-comment.ts";

export interface BoardColumn {
  id: string;
  name: string;
  color?: string;
  /** Most cards (not archived) the column may hold; none means no limit. */
  wipLimit?: number;
}

/** A board's policies and delegation facts (`settings`). */
export interface BoardSettings {
  /** Moving a card into these columns needs a human approval (202 + a pending approval). */
  requireApprovalFor?: string[];
  /** Moving a card into these columns needs a `comment` with the move. */
  commentRequiredFor?: string[];
  /** The squad lead: the default assignee of cards delegated to this board. */
  lead?: string;
  /** The column that means done (default: the last column). */
  doneColumn?: string;
}

export type BoardRecord = Omit<BoardRow, "columns" | "settings" | "version"> & { columns: BoardColumn[]; settings: BoardSettings };

export interface ChecklistItem {
  text: string;
  checked: boolean;
}
export interface Attachment {
  name: string;
  url: string;
}

export type CardRecord = Omit<CardRow, "labels" | "checklist" | "attachments"> & { labels: string[]; checklist: ChecklistItem[]; attachments: Attachment[] };

export type CardComment = CardCommentRow;

export interface HistoryEntry {
  id: string;
  cardId: string;
  action: HistoryAction;
  field: string | null;
  from: string | null;
  to: string | null;
  by: string;
  at: string;
}

export type HistoryAction = "created" | "updated" | "moved" | "claimed" | "commented" | "archived" | "restored" | "delegated" | "completed" | "unlinked";

export function boardRecord(row: BoardRow): BoardRecord {
  const { version: _version, ...rest } = row;
  return { ...rest, columns: JSON.parse(row.columns) as BoardColumn[], settings: JSON.parse(row.settings) as BoardSettings };
}

export function cardRecord(row: CardRow): CardRecord {
  return {
    ...row,
    labels: JSON.parse(row.labels) as string[],
    checklist: JSON.parse(row.checklist) as ChecklistItem[],
    attachments: JSON.parse(row.attachments) as Attachment[],
  };
}

/** The column a card is done in: `settings.doneColumn`, else the board's last column. */
export function doneColumnOf(columns: BoardColumn[], settings: BoardSettings): string {
  return settings.doneColumn ?? columns[columns.length - 1]!.id;
}
