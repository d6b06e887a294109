import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * Spec: Card (camelCased), plus the delegation links. The one declaration of
 * `boards_cards`. `labels`, `checklist` and `attachments` hold JSON text. Positions are
 * dense per column among the cards that are not archived (0..n-1); an archived card keeps
 * its column and has position -1 until it is restored.
 */
export const Card = defineEntity({
  name: "Card",
  tableName: "boards_cards",
  properties: {
    id: p.string().primary(),
    boardId: p.string(),
    title: p.string(),
    description: p.string().nullable(),
    column: p.string(),
    position: p.integer(),
    assignee: p.string().nullable(),
    labels: p.text(),
    priority: p.string().$type<"low" | "medium" | "high" | "urgent">(),
    dueDate: p.string().nullable(),
    checklist: p.text(),
    attachments: p.text(),
    parentCardId: p.string().nullable(),
    storyId: p.string().nullable(),
    epicId: p.string().nullable(),
    sprintId: p.string().nullable(),
    progress: p.integer(),
    /** The card this one was handed to on another board (cross-squad delegation). */
    delegatedTo: p.string().nullable(),
    /** The card on another board this one was delegated from. */
    delegatedFrom: p.string().nullable(),
    createdBy: p.string(),
    createdAt: p.string(),
    updatedAt: p.string(),
    completedAt: p.string().nullable(),
    archivedAt: p.string().nullable(),
  },
  indexes: [
    { name: "boards_cards_by_column", properties: ["boardId", "column", "archivedAt"] },
    { name: "boards_cards_by_assignee", properties: ["assignee"] },
    { name: "boards_cards_by_story", properties: ["storyId"] },
    { name: "boards_cards_by_epic", properties: ["epicId"] },
    { name: "boards_cards_by_sprint", properties: ["sprintId"] },
    { name: "boards_cards_by_delegated_from", properties: ["delegatedFrom"] },
  ],
});

export type CardRow = EntityRow<typeof Card>;
