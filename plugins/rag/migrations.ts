import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-rag",
    up: [
      `CREATE TABLE rag_files (
        path TEXT PRIMARY KEY,
        contentHash TEXT NOT NULL,
        providerKey TEXT NOT NULL,
        chunks INTEGER NOT NULL,
        indexedAt TEXT NOT NULL
      )`,
      `CREATE TABLE rag_chunks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        path TEXT NOT NULL,
        startLine INTEGER NOT NULL,
        endLine INTEGER NOT NULL,
        text TEXT NOT NULL,
        providerKey TEXT NOT NULL,
        dimensions INTEGER NOT NULL,
        vector BLOB NOT NULL
      )`,
      "CREATE INDEX rag_chunks_by_key ON rag_chunks (providerKey, path)",
      "CREATE INDEX rag_chunks_by_path ON rag_chunks (path)",
      "CREATE TABLE rag_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ],
  }),
];
