import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * One indexed workspace file (the spec's Workspace file index entry, plus title and
 * category): the one declaration of `search_files` (migrations.ts creates it; a test checks
 * they agree). A row means "the saved index holds this file as it was at this size and
 * mtime" (services/index-store.ts).
 */
export const SearchFile = defineEntity({
  name: "SearchFile",
  tableName: "search_files",
  properties: {
    id: p.string().primary(),
    // UNIQUE in the migration (an implicit SQLite index, which schema comparison does not list).
    path: p.string().unique(),
    type: p.string().$type<"markdown" | "yaml">(),
    size: p.integer(),
    /** ISO timestamp of the file's mtime (ms precision). */
    lastModified: p.string(),
    /** When the file was first indexed. */
    createdAt: p.string(),
    title: p.string(),
    category: p.string(),
    /** When this file was last (re)indexed. */
    indexedAt: p.string(),
  },
});

export type FileRow = EntityRow<typeof SearchFile>;
