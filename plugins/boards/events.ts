import type { BoardRecord, CardComment, CardRecord, HistoryEntry } from "./services/records.ts";

/** A board event: the board without its cards. */
export interface BoardEventPayload {
  board: BoardRecord;
  by: string;
}

/** A card event: the card after the change and the history rows the change wrote. */
export interface CardEventPayload {
  card: CardRecord;
  by: string;
  changes: HistoryEntry[];
}

export type BoardVerb = "created" | "updated" | "archived" | "restored";
export type CardVerb = "created" | "updated" | "moved" | "claimed" | "archived" | "restored" | "delegated" | "completed";

/** Events the boards plugin publishes (all public: forwarded to SSE clients). */
export type BoardEvents = { [V in BoardVerb as `boards.board.${V}`]: BoardEventPayload } & {
  [V in CardVerb as `boards.card.${V}`]: CardEventPayload;
} & {
  "boards.board.deleted": { id: string; cards: number };
  "boards.card.deleted": { id: string; boardId: string };
  "boards.card.commented": { card: CardRecord; comment: CardComment };
};

declare module "@muster/plugin" {
  interface MusterEvents extends BoardEvents {}
}
