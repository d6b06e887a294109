import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * Spec: Board (fields camelCased per DESIGN §5). The one declaration of `boards_boards`
 * (migrations.ts creates it; a test checks they agree). `columns` and `settings` hold JSON
 * text; the API shows them parsed.
 */
export const Board = defineEntity({
  name: "Board",
  tableName: "boards_boards",
  properties: {
    id: p.string().primary(),
    name: p.string(),
    description: p.string().nullable(),
    type: p.string().$type<"kanban" | "sprint" | "custom">(),
    /** JSON array of `{ id, name, color?, wipLimit? }`. */
    columns: p.text(),
    owner: p.string(),
    squad: p.string().nullable(),
    /** JSON object: policies (`requireApprovalFor`, `commentRequiredFor`), `lead`, `doneColumn`. */
    settings: p.text(),
    /**
     * Grows on every change to the board or any of its cards, in the same transaction: the
     * key of the cached `GET /api/boards/{id}` answer. Never shown.
     */
    version: p.integer(),
    createdAt: p.string(),
    updatedAt: p.string(),
    archivedAt: p.string().nullable(),
  },
  indexes: [{ name: "boards_boards_by_update", properties: ["updatedAt"] }],
});

export type BoardRow = EntityRow<typeof Board>;
