import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * The serialised search index, one row per `key` (its format, and the index: JSON text in
 * `value`, the compact postings in `data`): the one declaration of `search_state`
 * (migrations.ts creates it; a test checks they agree).
 */
export const SearchState = defineEntity({
  name: "SearchState",
  tableName: "search_state",
  properties: {
    key: p.string().primary(),
    value: p.string(),
    updatedAt: p.string(),
    /** Binary side of a serialised value (added by migration 002). */
    data: p.blob().$type<Buffer>().nullable(),
  },
});

export type SearchStateRow = EntityRow<typeof SearchState>;
