// The shapes the boards pages work with, taken from the typed client's answers (so they follow
// the API's schemas without a copy).
import type { Muster } from "@muster/console";

export type BoardView = Awaited<ReturnType<Muster["getBoardsById"]>>;
export type Board = BoardView["board"];
export type Card = BoardView["cards"][number];
export type Column = Board["columns"][number];
export type CardDetail = Awaited<ReturnType<Muster["getCardsById"]>>;
export type HistoryEntry = CardDetail["history"][number];
export type CardComment = Awaited<ReturnType<Muster["getCardsCommentsById"]>>["comments"][number];
export type Template = Awaited<ReturnType<Muster["getBoardsTemplates"]>>["templates"][number];
