import { defineErrors, PUBLISHED_BEFORE_PREFIX_RULE } from "@muster/plugin";

/** The boards plugin's error catalogue (docs/boards.md says when each is answered). */
export const boardErrors = defineErrors("boards", {
  BOARD_NOT_FOUND: { status: 404, message: "No board with id {id}" },
  CARD_NOT_FOUND: { status: 404, message: "No card with id {id}" },
  BOARD_TEMPLATE_NOT_FOUND: { status: 400, message: "No board template {template}; GET /api/boards/templates lists them" },
  BOARD_COLUMNS_REQUIRED: { status: 400, message: "A board needs columns: send columns or a template" },
  BOARD_COLUMN_UNKNOWN: { status: 400, message: "Board {boardId} has no column {column}" },
  BOARD_COLUMN_NOT_EMPTY: {
    status: 409,
    message: "Column {column} of board {boardId} still holds {count} cards (archived ones included); move or delete them before removing the column",
  },
  BOARD_COLUMN_GATED: { status: 409, message: "Cards enter column {column} only by a move a human approved; create the card in another column and move it" },
  BOARD_ARCHIVED: { status: 409, message: "Board {id} is archived; restore it (PATCH archived: false) before changing its cards" },
  WIP_LIMIT_REACHED: { status: 409, message: "Column {column} already holds {count} cards, its WIP limit is {limit}" },
  CARD_ARCHIVED: { status: 409, message: "Card {id} is archived; restore it (PATCH archived: false) first" },
  CARD_ALREADY_CLAIMED: { status: 409, message: "Card {id} is already claimed by {assignee}" },
  CARD_MOVED_MEANWHILE: {
    status: 409,
    message: "Card {id} was in {expected} when the move was requested and is now in {actual}; request the move again",
  },
  CARD_COMMENT_REQUIRED: { status: 400, message: "Moving a card into column {column} needs a comment (send comment with the move)" },
  CARD_LINK_NOT_FOUND: { status: 400, message: "{field} refers to a {kind} that does not exist ({id})" },
  CARD_PARENT_INVALID: { status: 400, message: "parentCardId {parentCardId} is not another card of board {boardId}" },
  CARD_ALREADY_DELEGATED: { status: 409, message: "Card {id} was already delegated to card {delegatedTo}" },
  CARD_DELEGATION_SAME_BOARD: { status: 400, message: "Card {id} is on board {boardId} already; delegate to another squad's board" },
  CARD_DELEGATION_LEAD_REQUIRED: {
    status: 400,
    message: "Board {boardId} names no lead (settings.lead); send assignee with the delegation",
  },
}, {
  // Codes without the prefix BOARDS_ that clients already match: they keep their names (docs/errors.md).
  exempt: {
    BOARD_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    CARD_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    BOARD_TEMPLATE_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    BOARD_COLUMNS_REQUIRED: PUBLISHED_BEFORE_PREFIX_RULE,
    BOARD_COLUMN_UNKNOWN: PUBLISHED_BEFORE_PREFIX_RULE,
    BOARD_COLUMN_NOT_EMPTY: PUBLISHED_BEFORE_PREFIX_RULE,
    BOARD_COLUMN_GATED: PUBLISHED_BEFORE_PREFIX_RULE,
    BOARD_ARCHIVED: PUBLISHED_BEFORE_PREFIX_RULE,
    WIP_LIMIT_REACHED: "named by DESIGN §14.11 (boards)",
    CARD_ARCHIVED: PUBLISHED_BEFORE_PREFIX_RULE,
    CARD_ALREADY_CLAIMED: PUBLISHED_BEFORE_PREFIX_RULE,
    CARD_MOVED_MEANWHILE: PUBLISHED_BEFORE_PREFIX_RULE,
    CARD_COMMENT_REQUIRED: PUBLISHED_BEFORE_PREFIX_RULE,
    CARD_LINK_NOT_FOUND: PUBLISHED_BEFORE_PREFIX_RULE,
    CARD_PARENT_INVALID: PUBLISHED_BEFORE_PREFIX_RULE,
    CARD_ALREADY_DELEGATED: PUBLISHED_BEFORE_PREFIX_RULE,
    CARD_DELEGATION_SAME_BOARD: PUBLISHED_BEFORE_PREFIX_RULE,
    CARD_DELEGATION_LEAD_REQUIRED: PUBLISHED_BEFORE_PREFIX_RULE,
  },
});
