import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-council",
    up: [
      `CREATE TABLE council_sessions (
        id TEXT PRIMARY KEY,
        topic TEXT NOT NULL,
        agents TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled')),
        positions TEXT NOT NULL,
        proposal TEXT,
        votes TEXT NOT NULL,
        outcome TEXT,
        approvalId TEXT,
        memoPath TEXT,
        error TEXT,
        createdAt TEXT NOT NULL,
        completedAt TEXT,
        ratifiedAt TEXT,
        ratifiedBy TEXT
      )`,
      "CREATE INDEX council_sessions_by_creation ON council_sessions (createdAt DESC)",
    ],
  }),
  defineMigration({
    // Team mode: the instance running a session, so another instance's start-up (or its sweep
    // for dead instances) fails only sessions no live instance is deliberating.
    name: "002-session-owner",
    up: ["ALTER TABLE council_sessions ADD COLUMN owner TEXT"],
  }),
];
