import { defineMigration } from "@muster/plugin";

/** Applied once each, in order, recorded as `standup:<name>`: never rename or reorder a shipped one. */
export const migrations = [
  defineMigration({
    name: "001-notes",
    up: [
      `CREATE TABLE standup_notes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        agent TEXT NOT NULL,
        day TEXT NOT NULL,
        yesterday TEXT NOT NULL,
        today TEXT NOT NULL,
        blockers TEXT NOT NULL,
        postedAt TEXT NOT NULL
      )`,
      // One note per agent and day: posting again the same day replaces it.
      "CREATE UNIQUE INDEX standup_notes_by_day ON standup_notes (day, agent)",
    ],
  }),
];
