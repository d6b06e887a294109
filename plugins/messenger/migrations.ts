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
];
