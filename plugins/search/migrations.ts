import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-search-index",
    up: [
      // The spec's "Workspace file index entry" (camelCase per DESIGN §5) plus what a
      // restart needs to skip unchanged files without reading them.
      `CREATE TABLE search_files (
        id TEXT PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        size INTEGER NOT NULL,
        lastModified TEXT NOT NULL,
        createdAt TEXT NOT NULL,
        title TEXT NOT NULL,
        category TEXT NOT NULL,
        indexedAt TEXT NOT NULL
      )`,
      // The serialised minisearch index, written in the same transaction as the rows above
      // so the two always describe the same set of documents.
      `CREATE TABLE search_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updatedAt TEXT NOT NULL
      )`,
    ],
  }),
  defineMigration({
    name: "002-search-state-data",
    // Binary side of a serialised value (the compact index's postings).
    up: "ALTER TABLE search_state ADD COLUMN data BLOB",
  }),
];
