import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-messenger",
    up: [
      "CREATE TABLE messenger_seen_updates (updateId INTEGER PRIMARY KEY, receivedAt TEXT NOT NULL)",
      `CREATE TABLE messenger_media (
        id TEXT PRIMARY KEY,
        updateId INTEGER NOT NULL,
        path TEXT NOT NULL,
        mimeType TEXT NOT NULL,
        sizeBytes INTEGER NOT NULL,
        createdAt TEXT NOT NULL
      )`,
    ],
  }),
  defineMigration({
    name: "002-update-kind",
    up: [
      // What each update was and whether it came from another chat, for GET /api/messenger's
      // last update. Rows from before this migration keep null: unknown.
      "ALTER TABLE messenger_seen_updates ADD COLUMN kind TEXT",
      "ALTER TABLE messenger_seen_updates ADD COLUMN ignored INTEGER CHECK (ignored IN (0, 1))",
    ],
  }),
  defineMigration({
    name: "003-media-content",
    // Team mode keeps a file's bytes in its row (entities/media-file.ts says why); null on SQLite.
    up: "ALTER TABLE messenger_media ADD COLUMN content BLOB",
  }),
];
