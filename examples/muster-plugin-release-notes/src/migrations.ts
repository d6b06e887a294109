import { defineMigration } from "@muster/plugin";

/** Applied once each, in order, recorded as `release-notes:<name>`: never rename or reorder a shipped one. */
export const migrations = [
  defineMigration({
    name: "001-notes",
    up: [
      `CREATE TABLE release_notes_notes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        version TEXT NOT NULL,
        text TEXT NOT NULL,
        author TEXT,
        createdAt TEXT NOT NULL
      )`,
      "CREATE INDEX release_notes_notes_by_version ON release_notes_notes (version, id)",
    ],
  }),
];
