import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    // Used in team mode only (entities/stream-frame.ts); created on both engines so a
    // database keeps one schema whichever engine it runs on.
    name: "001-team-stream",
    up: [
      `CREATE TABLE stream_frames (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        message TEXT NOT NULL,
        createdAt TEXT NOT NULL
      )`,
      `CREATE TABLE stream_origin (
        id INTEGER PRIMARY KEY,
        bootId TEXT NOT NULL
      )`,
    ],
  }),
];
