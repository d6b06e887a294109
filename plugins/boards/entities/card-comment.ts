import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** A comment on a card. */
export const CardComment = defineEntity({
  name: "CardComment",
  tableName: "boards_card_comments",
  properties: {
    id: p.string().primary(),
    cardId: p.string(),
    author: p.string(),
    content: p.text(),
    createdAt: p.string(),
  },
  indexes: [{ name: "boards_card_comments_by_card", properties: ["cardId", "createdAt"] }],
});

export type CardCommentRow = EntityRow<typeof CardComment>;
