import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** A comment on a card. `boardId` lets a board's hard delete remove its comments in one statement. */
export const CardComment = defineEntity({
  name: "CardComment",
  tableName: "boards_card_comments",
  properties: {
    id: p.string().primary(),
    cardId: p.string(),
    boardId: p.string(),
    author: p.string(),
    content: p.text(),
    createdAt: p.string(),
  },
  indexes: [
    { name: "boards_card_comments_by_card", properties: ["cardId", "createdAt"] },
    { name: "boards_card_comments_by_board", properties: ["boardId"] },
  ],
});

export type CardCommentRow = EntityRow<typeof CardComment>;
