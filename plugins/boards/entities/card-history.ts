import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * One change of a card: `{ id, cardId, action, field, from, to, by, at }` in the API.
 * `from` and `to` are SQL keywords, so the columns are `fromValue` and `toValue`.
 */
export const CardHistory = defineEntity({
  name: "CardHistory",
  tableName: "boards_card_history",
  properties: {
    id: p.string().primary(),
    cardId: p.string(),
    action: p.string(),
    field: p.string().nullable(),
    fromValue: p.text().nullable(),
    toValue: p.text().nullable(),
    by: p.string(),
    at: p.string(),
  },
  indexes: [{ name: "boards_card_history_by_card", properties: ["cardId", "at"] }],
});

export type CardHistoryRow = EntityRow<typeof CardHistory>;
